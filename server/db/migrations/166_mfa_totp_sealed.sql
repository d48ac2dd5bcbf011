-- Issue 49: TOTP secrets sealed at rest (docs/MFA.md), as the identity providers' client secrets are
-- (server/auth/iam/sealed.ts: AES-256-GCM under a key derived from the installation secret, bound to the account).
-- The key is not in the database, so SQL cannot seal: this migration makes room (`sealed`, and `secret` allowed empty,
-- exactly one of the two kept), and server/auth/mfa/sealing.ts seals every row still plain when the server is ready
-- (and any row a restored backup brings back, when it is first read). A begun enrolment is short-lived and is dropped:
-- it is begun again, sealed.
alter table mfa_totp add column if not exists sealed text;
alter table mfa_totp alter column secret drop not null;
alter table mfa_totp drop constraint if exists mfa_totp_one_secret;
alter table mfa_totp add constraint mfa_totp_one_secret check ((secret is null) <> (sealed is null));
delete from mfa_totp_pending;
alter table mfa_totp_pending drop column if exists secret;
alter table mfa_totp_pending add column if not exists sealed text not null;

-- Migration 145's rule with the sealed column: a factor change ends the account's other sessions; sealing a kept
-- plain secret (the same factor, now sealed) is none.
create or replace function end_sessions_on_factor_change() returns trigger language plpgsql as $$
declare uid int;
begin
  if tg_op = 'DELETE' then uid := old.user_id; else uid := new.user_id; end if;
  if tg_op = 'UPDATE' and tg_table_name = 'mfa_totp' then
    if new.secret is not distinct from old.secret and new.sealed is not distinct from old.sealed then return null; end if;
    if old.secret is not null and old.sealed is null and new.secret is null and new.sealed is not null then return null; end if;
  end if;
  update sessions set ended_at = now(), ended_by = coalesce(ended_by, 'credential change')
   where user_id = uid and ended_at is null
     and jti is distinct from nullif(current_setting('gatehouse.keep_session', true), '');
  return null;
end
$$;
drop trigger if exists mfa_totp_follows on mfa_totp;
create trigger mfa_totp_follows after insert or update of secret, sealed or delete on mfa_totp
  for each row execute function end_sessions_on_factor_change();
