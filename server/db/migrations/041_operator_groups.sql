-- Operator groups (issue 11, spec 0.3.3.x): operators of a client grouped, so the roles granted to a group (per
-- division, null: all of the client) apply to every member. A user's effective grants are their own grants
-- together with their groups' (server/db/queries/grants.ts EFFECTIVE_GRANTS). A change to a group's members or
-- grants bumps the auth epoch like a direct grant does, so it reaches signed-in operators on their next request.
create table if not exists operator_groups (
  id serial primary key,
  client_id int not null references clients(id) on delete cascade,
  name text not null,
  description text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (client_id, name));
create table if not exists operator_group_members (
  group_id int not null references operator_groups(id) on delete cascade,
  user_id int not null references users(id) on delete cascade,
  primary key (group_id, user_id));
create index if not exists operator_group_members_user on operator_group_members (user_id);
create table if not exists operator_group_grants (
  id serial primary key,
  group_id int not null references operator_groups(id) on delete cascade,
  client_id int not null references clients(id) on delete cascade,
  role_id int not null references roles(id),
  division_id int references divisions(id) on delete cascade);
create index if not exists operator_group_grants_group on operator_group_grants (group_id);

-- who is an operator of a client: created there (home client), granted a role there, or in one of its groups
alter table users add column if not exists disabled boolean not null default false;
create or replace view tenant_operators as
  select u.id, t.client_id, u.username, u.name, u.email, u.disabled, u.created_at
    from users u join (
      select user_id, client_id from user_grants
      union select id, home_client_id from users where home_client_id is not null
      union select m.user_id, g.client_id from operator_group_members m join operator_groups g on g.id = m.group_id
    ) t on t.user_id = u.id
   where u.kind = 'operator';

drop trigger if exists auth_epoch_group_members on operator_group_members;
create trigger auth_epoch_group_members after insert or update or delete or truncate on operator_group_members for each statement execute function bump_auth_epoch();
drop trigger if exists auth_epoch_group_grants on operator_group_grants;
create trigger auth_epoch_group_grants after insert or update or delete or truncate on operator_group_grants for each statement execute function bump_auth_epoch();
drop trigger if exists auth_epoch_groups on operator_groups;
create trigger auth_epoch_groups after delete or truncate on operator_groups for each statement execute function bump_auth_epoch();
-- a disabled operator is refused on the next request
drop trigger if exists auth_epoch_users_disabled on users;
create trigger auth_epoch_users_disabled after update of disabled on users for each statement execute function bump_auth_epoch();
