-- Core tables: tenants, divisions, roles and grants, operators, identities and credentials, doors and
-- controllers, the audit trail, password resets, registration requests, UI errors, sessions, secrets.
create table if not exists clients (
  id serial primary key, name text not null, code text not null unique, timezone text not null,
  contact_email text, address text, active boolean not null default true,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now());
create table if not exists divisions (
  id serial primary key, client_id int not null references clients(id), name text not null,
  parent_id int references divisions(id));
create index if not exists divisions_client on divisions(client_id);
create table if not exists roles (code text primary key, name text not null);
create table if not exists role_privileges (role_code text not null references roles(code), privilege text not null, primary key (role_code, privilege));
create table if not exists users (
  id serial primary key, username text not null unique, password_hash text not null, name text not null,
  email text, avatar_color text not null default 'blue', timezone text not null default 'UTC',
  multi_tenancy boolean not null default false, selected_client_id int references clients(id),
  settings jsonb not null default '{}'::jsonb, dashboard_pages jsonb not null default '[]'::jsonb,
  failed_attempts int not null default 0, locked_until timestamptz,
  created_at timestamptz not null default now());
create table if not exists user_grants (
  id serial primary key, user_id int not null references users(id), role_code text not null references roles(code),
  client_id int not null references clients(id), division_id int references divisions(id));
create index if not exists user_grants_user on user_grants(user_id);
create table if not exists identities (
  id serial primary key, client_id int not null references clients(id), first_name text not null, last_name text not null,
  employee_no text not null, email text, phone text, division_id int not null references divisions(id),
  status text not null default 'active', valid_from date, valid_to date, id_number text, photo text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
  unique (client_id, employee_no));
create index if not exists identities_client on identities(client_id, id);
create table if not exists credentials (
  id serial primary key, client_id int not null references clients(id), identity_id int not null references identities(id) on delete cascade,
  type text not null, number text not null, facility_code int, valid_from date, valid_to date, status text not null default 'active',
  unique (client_id, number));
create index if not exists credentials_identity on credentials(identity_id);
create table if not exists doors (id serial primary key, client_id int not null references clients(id), division_id int references divisions(id), name text not null, status text not null default 'closed');
create table if not exists controllers (id serial primary key, client_id int not null references clients(id), name text not null, ip_address text not null, status text not null default 'online');
create table if not exists audit_log (
  id bigserial primary key, client_id int, actor text not null, action text not null, entity text not null,
  entity_id text, before jsonb, after jsonb, at timestamptz not null default now());
create index if not exists audit_client_at on audit_log(client_id, id desc);
create table if not exists password_resets (token_hash text primary key, user_id int not null references users(id), expires_at timestamptz not null, used boolean not null default false);
create table if not exists registration_requests (id serial primary key, username text not null, name text not null, email text not null, client_code text, at timestamptz not null default now());
create table if not exists ui_errors (id serial primary key, user_id int, client_id int, message text not null, stack text, url text not null, user_agent text, at timestamptz not null default now());
create table if not exists sessions (jti text primary key, user_id int not null references users(id), ip text, user_agent text, started_at timestamptz not null default now(), ended_at timestamptz);
create table if not exists server_secrets (name text primary key, value text not null);
