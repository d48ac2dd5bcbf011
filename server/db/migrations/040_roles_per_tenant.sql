-- Roles per tenant (issue 11). Roles were one global table keyed by code; now every role belongs to a client
-- (roles.client_id) and is edited there. The old global roles become templates (role_templates): the demo roles
-- and the platform operator's role, which is held only through platform_grants. Every client gets its own copy
-- of the templates (except the platform operator's) when it is created (trigger below), and every existing client
-- gets one now, with its grants moved onto its copies. A role's privileges may be ticked per division
-- (role_privileges.division_id; null: wherever the grant reaches).
-- role_code stays beside role_id in user_grants and role_privileges, kept by triggers, so writers that still
-- name a role by code (seed, tests, service accounts) keep working: the code resolves to the client's role, which
-- is copied from the template of that code when the client has none yet.
create table if not exists role_templates (code text primary key, name text not null, description text);
create table if not exists role_template_privileges (
  code text not null references role_templates(code) on delete cascade,
  privilege text not null,
  primary key (code, privilege));
insert into role_templates (code, name) select code, name from roles on conflict do nothing;
insert into role_template_privileges (code, privilege) select role_code, privilege from role_privileges on conflict do nothing;

alter table user_grants drop constraint if exists user_grants_role_code_fkey;
alter table role_privileges drop constraint if exists role_privileges_role_code_fkey;
alter table role_privileges drop constraint if exists role_privileges_pkey;
alter table platform_grants drop constraint if exists platform_grants_role_code_fkey;
alter table platform_grants add constraint platform_grants_role_code_fkey foreign key (role_code) references role_templates(code);
alter table roles drop constraint if exists roles_pkey;

delete from role_privileges;
delete from roles;
alter table roles add column if not exists id serial;
alter table roles add primary key (id);
alter table roles add column if not exists client_id int not null references clients(id) on delete cascade;
alter table roles add column if not exists description text;
alter table roles add column if not exists created_at timestamptz not null default now();
alter table roles add column if not exists updated_at timestamptz not null default now();
create unique index if not exists roles_client_code on roles (client_id, code);
create unique index if not exists roles_client_name on roles (client_id, name);

insert into roles (client_id, code, name)
  select c.id, t.code, t.name from clients c cross join role_templates t where t.code <> 'platform-operator';

alter table role_privileges add column if not exists role_id int not null references roles(id) on delete cascade;
alter table role_privileges add column if not exists division_id int references divisions(id) on delete cascade;
alter table role_privileges alter column role_code drop not null;
create unique index if not exists role_privileges_key on role_privileges (role_id, privilege, coalesce(division_id, 0));
insert into role_privileges (role_id, role_code, privilege)
  select r.id, r.code, tp.privilege from roles r join role_template_privileges tp on tp.code = r.code;

alter table user_grants add column if not exists role_id int references roles(id);
update user_grants g set role_id = (select r.id from roles r where r.client_id = g.client_id and r.code = g.role_code);
delete from user_grants where role_id is null;
alter table user_grants alter column role_id set not null;
alter table user_grants alter column role_code drop not null;
create index if not exists user_grants_role on user_grants (role_id);

-- the client's copy of a template role (made when missing); null when there is no such template
create or replace function client_role(cid int, rcode text) returns int language plpgsql as $$
declare rid int;
begin
  select r.id into rid from roles r where r.client_id = cid and r.code = rcode;
  if rid is null and exists (select 1 from role_templates t where t.code = rcode) then
    insert into roles (client_id, code, name, description)
      select cid, t.code, t.name, t.description from role_templates t where t.code = rcode returning id into rid;
    insert into role_privileges (role_id, role_code, privilege)
      select rid, rcode, tp.privilege from role_template_privileges tp where tp.code = rcode;
  end if;
  return rid;
end $$;

create or replace function fill_grant_role() returns trigger language plpgsql as $$
begin
  if new.role_id is null or (tg_op = 'UPDATE' and new.role_code is distinct from old.role_code and new.role_id = old.role_id) then
    new.role_id := client_role(new.client_id, new.role_code);
    if new.role_id is null then
      raise exception 'no role %', new.role_code using errcode = 'foreign_key_violation';
    end if;
  end if;
  select r.code into new.role_code from roles r where r.id = new.role_id;
  return new;
end $$;
drop trigger if exists user_grants_role_ref on user_grants;
create trigger user_grants_role_ref before insert or update on user_grants for each row execute function fill_grant_role();

create or replace function fill_privilege_role() returns trigger language plpgsql as $$
begin
  select r.code into new.role_code from roles r where r.id = new.role_id;
  return new;
end $$;
drop trigger if exists role_privileges_role_ref on role_privileges;
create trigger role_privileges_role_ref before insert or update on role_privileges for each row execute function fill_privilege_role();

-- a role's code changes: the copies of it follow
create or replace function roles_code_follow() returns trigger language plpgsql as $$
begin
  if new.code is distinct from old.code then
    update user_grants set role_code = new.code where role_id = new.id;
    update role_privileges set role_code = new.code where role_id = new.id;
  end if;
  return null;
end $$;
drop trigger if exists roles_code_follow on roles;
create trigger roles_code_follow after update of code on roles for each row execute function roles_code_follow();

-- a new client starts with its own copy of the template roles (not the platform operator's)
create or replace function copy_template_roles() returns trigger language plpgsql as $$
begin
  perform client_role(new.id, t.code) from role_templates t where t.code <> 'platform-operator';
  return null;
end $$;
drop trigger if exists clients_template_roles on clients;
create trigger clients_template_roles after insert on clients for each row execute function copy_template_roles();
