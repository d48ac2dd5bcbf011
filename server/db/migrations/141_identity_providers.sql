-- Issue 49, IAM mode: a client's own identity providers (contract/resources/identityProviders.ts), OpenID Connect or
-- SAML 2.0. client_secret holds the secret sealed with AES-256-GCM under a key derived from the installation secret
-- (server/auth/iam/sealed.ts): "v1.<iv>.<tag>.<data>", never the secret itself. Their privileges [0.3.9.x] go to the
-- roles that may assign privileges to roles [0.3.6.4] (administrators); new installations get them from the seed.
create table if not exists identity_providers (
  id serial primary key,
  client_id int not null references clients(id),
  name text not null,
  kind text not null default 'oidc' check (kind in ('oidc', 'saml')),
  active boolean not null default true,
  issuer text not null,
  oidc_client_id text,
  client_secret text,
  sso_url text,
  certificate text,
  groups_attribute text,
  role_map text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index if not exists identity_providers_name on identity_providers(client_id, name);
create index if not exists identity_providers_client on identity_providers(client_id) where active;
insert into role_privileges (role_id, role_code, privilege)
  select distinct rp.role_id, rp.role_code, p.code from role_privileges rp
    cross join (values ('0.3.9.0'), ('0.3.9.1'), ('0.3.9.2'), ('0.3.9.3')) as p(code)
   where rp.privilege = '0.3.6.4'
on conflict do nothing;
insert into role_template_privileges (code, privilege)
  select t.code, p.code from role_template_privileges t cross join (values ('0.3.9.0'), ('0.3.9.1'), ('0.3.9.2'), ('0.3.9.3')) as p(code)
   where t.privilege = '0.3.6.4'
on conflict do nothing;
-- How a ticket's person was signed in (the session says it): 'oidc' or 'saml'.
alter table iam_tickets add column if not exists method text not null default 'oidc';
