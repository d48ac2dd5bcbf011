-- The request path caches each session's grants, role privileges and division tree (issue 13). Any change to
-- them, and any session ending, bumps this one counter (statement triggers, so every writer is covered, on every
-- server sharing the database); a server reads it once per request and drops its cache when it moved.
create table if not exists auth_epoch (id int primary key, epoch bigint not null);
insert into auth_epoch (id, epoch) values (1, 0) on conflict (id) do nothing;

create or replace function bump_auth_epoch() returns trigger language plpgsql as $$
begin
  update auth_epoch set epoch = epoch + 1 where id = 1;
  return null;
end $$;

drop trigger if exists auth_epoch_grants on user_grants;
create trigger auth_epoch_grants after insert or update or delete or truncate on user_grants for each statement execute function bump_auth_epoch();
drop trigger if exists auth_epoch_roles on roles;
create trigger auth_epoch_roles after insert or update or delete or truncate on roles for each statement execute function bump_auth_epoch();
drop trigger if exists auth_epoch_role_privileges on role_privileges;
create trigger auth_epoch_role_privileges after insert or update or delete or truncate on role_privileges for each statement execute function bump_auth_epoch();
drop trigger if exists auth_epoch_divisions on divisions;
create trigger auth_epoch_divisions after insert or update or delete or truncate on divisions for each statement execute function bump_auth_epoch();
drop trigger if exists auth_epoch_users on users;
create trigger auth_epoch_users after delete or truncate on users for each statement execute function bump_auth_epoch();
-- a session ending (sign-out, an operator ending it, a client switch) must be refused at once
drop trigger if exists auth_epoch_sessions_end on sessions;
create trigger auth_epoch_sessions_end after update of ended_at or delete or truncate on sessions for each statement execute function bump_auth_epoch();
