-- Issue 45: a credential change ends every other session of the account, whatever path changed it (a route, a script,
-- a future one). The database does it as the password hash is written, so no route can forget: the session that made
-- the change (if any) is named in the transaction by set_config('gatehouse.keep_session', jti, true) and is kept.
create or replace function end_sessions_on_credential_change() returns trigger language plpgsql as $$
begin
  if new.password_hash is distinct from old.password_hash then
    update sessions set ended_at = now(), ended_by = coalesce(ended_by, 'credential change')
     where user_id = new.id and ended_at is null
       and jti is distinct from nullif(current_setting('gatehouse.keep_session', true), '');
  end if;
  return null;
end
$$;
drop trigger if exists sessions_follow_credentials on users;
create trigger sessions_follow_credentials after update of password_hash on users
  for each row execute function end_sessions_on_credential_change();
