-- Roles per tenant (issue 11). Roles were one global table keyed by code; now a role belongs to a client
-- (roles.client_id), and the rows without a client are templates: the demo roles, and the platform operator's
-- role (held only through platform_grants). Every client gets its own copy of the templates when it is created
-- (trigger below) and every existing client gets one now, with the grants moved onto its copies. A role's
-- privileges may be ticked per division (role_privileges.division_id; null: wherever the grant reaches).
-- role_code stays beside role_id in user_grants and role_privileges, filled by triggers, so writers that still
-- name a role by code (seed, tests, service accounts) keep working: the code resolves to the client's role first,
-- then to the template.
alter table user_grants drop constraint if exists user_grants_role_code_fkey;
alter table role_privileges drop constraint if exists role_privileges_role_code_fkey;
alter table role_privileges drop constraint if exists role_privileges_pkey;
alter table platform_grants drop constraint if exists platform_grants_role_code_fkey;
alter table roles drop constraint if exists roles_pkey;

alter table roles add column if not exists id serial;
alter table roles add primary key (id);
alter table roles add column if not exists client_id int references clients(id) on delete cascade;
alter table roles add column if not exists description text;
alter table roles add column if not exists created_at timestamptz not null default now();
alter table roles add column if not exists updated_at timestamptz not null default now();
create unique index if not exists roles_template_code on roles (code) where client_id is null;
create unique index if not exists roles_client_code on roles (client_id, code);
create index if not exists roles_client on roles (client_id, id);

insert into roles (client_id, code, name)
  select c.id, r.code, r.name from clients c cross join roles r
   where r.client_id is null and r.code <> 'platform-operator';

alter table role_privileges add column if not exists role_id int references roles(id) on delete cascade;
alter table role_privileges add column if not exists division_id int references divisions(id) on delete cascade;
alter table role_privileges alter column role_code drop not null;
update role_privileges rp set role_id = r.id from roles r where r.client_id is null and r.code = rp.role_code;
insert into role_privileges (role_id, role_code, privilege)
  select r.id, r.code, rp.privilege from role_privileges rp
    join roles t on t.id = rp.role_id join roles r on r.code = t.code and r.client_id is not null;
alter table role_privileges alter column role_id set not null;
create unique index if not exists role_privileges_key on role_privileges (role_id, privilege, coalesce(division_id, 0));

alter table user_grants add column if not exists role_id int references roles(id) on delete cascade;
update user_grants g set role_id = coalesce(
  (select r.id from roles r where r.client_id = g.client_id and r.code = g.role_code),
  (select r.id from roles r where r.client_id is null and r.code = g.role_code));
delete from user_grants where role_id is null;
alter table user_grants alter column role_id set not null;
alter table user_grants alter column role_code drop not null;
create index if not exists user_grants_role on user_grants (role_id);

-- a grant or privilege row named by code only: the client's role of that code, else the template
create or replace function fill_role_ref() returns trigger language plpgsql as $$
declare cid int;
begin
  if tg_table_name = 'user_grants' then cid := new.client_id; end if;
  if new.role_id is null or (tg_op = 'UPDATE' and new.role_code is distinct from old.role_code and new.role_id = old.role_id) then
    select r.id into new.role_id from roles r
     where r.code = new.role_code and (r.client_id = cid or r.client_id is null)
     order by r.client_id nulls last limit 1;
    if new.role_id is null then
      raise exception 'no role %', new.role_code using errcode = 'foreign_key_violation';
    end if;
  end if;
  select r.code into new.role_code from roles r where r.id = new.role_id;
  return new;
end $$;
drop trigger if exists user_grants_role_ref on user_grants;
create trigger user_grants_role_ref before insert or update on user_grants for each row execute function fill_role_ref();
drop trigger if exists role_privileges_role_ref on role_privileges;
create trigger role_privileges_role_ref before insert or update on role_privileges for each row execute function fill_role_ref();

-- a role's code changes: the grants' copy of it follows
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
  insert into roles (client_id, code, name, description)
    select new.id, t.code, t.name, t.description from roles t where t.client_id is null and t.code <> 'platform-operator'
    on conflict do nothing;
  insert into role_privileges (role_id, role_code, privilege)
    select r.id, r.code, rp.privilege from roles r
      join roles t on t.client_id is null and t.code = r.code
      join role_privileges rp on rp.role_id = t.id and rp.division_id is null
     where r.client_id = new.id
    on conflict do nothing;
  return null;
end $$;
drop trigger if exists clients_template_roles on clients;
create trigger clients_template_roles after insert on clients for each row execute function copy_template_roles();
