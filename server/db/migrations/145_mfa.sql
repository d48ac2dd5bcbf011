-- Issue 49: multi-factor sign-in for the accounts Gatehouse keeps (server/auth/mfa, docs/MFA.md). TOTP (RFC 6238) with
-- the last accepted time step (a code is never accepted twice), one-time recovery codes kept as scrypt hashes, passkeys
-- (WebAuthn public keys), the short-lived tickets between a password and its second step, and each client's rule of
-- who must use MFA (operator_settings.mfa_required: 0 nobody, 1 administrators, 2 every operator).
create table if not exists mfa_totp (
  user_id int primary key references users(id) on delete cascade,
  secret text not null,
  last_step bigint not null default 0,
  enrolled_at timestamptz not null default now());
-- an enrolment begun (a secret shown as a QR code) and not yet confirmed with a code; bound to the session or sign-in
-- ticket that began it, so it cannot be finished from another
create table if not exists mfa_totp_pending (
  user_id int primary key references users(id) on delete cascade,
  secret text not null,
  bound_to text not null,
  created_at timestamptz not null default now());
create table if not exists mfa_recovery_codes (
  id bigserial primary key,
  user_id int not null references users(id) on delete cascade,
  code_hash text not null,
  used_at timestamptz);
create index if not exists mfa_recovery_codes_user on mfa_recovery_codes (user_id);
create table if not exists mfa_tickets (
  hash text primary key,
  user_id int not null references users(id) on delete cascade,
  purpose text not null check (purpose in ('verify', 'enrol')),
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now());
create index if not exists mfa_tickets_expiry on mfa_tickets (expires_at);
create table if not exists webauthn_credentials (
  id text primary key,
  user_id int not null references users(id) on delete cascade,
  public_key text not null,
  counter bigint not null default 0,
  transports text not null default '',
  name text not null default '',
  created_at timestamptz not null default now(),
  last_used_at timestamptz);
create index if not exists webauthn_credentials_user on webauthn_credentials (user_id);
create table if not exists webauthn_challenges (
  challenge text primary key,
  user_id int references users(id) on delete cascade,
  purpose text not null check (purpose in ('register', 'authenticate')),
  bound_to text not null default '',
  expires_at timestamptz not null);
alter table operator_settings add column if not exists mfa_required int not null default 0;

-- Issue 45's rule for the second factors too: enrolling or removing one ends every other session of the account, in the
-- transaction that changes it, whatever path changed it; the session that made the change is kept as for a password.
create or replace function end_sessions_on_factor_change() returns trigger language plpgsql as $$
declare uid int;
begin
  if tg_op = 'DELETE' then uid := old.user_id; else uid := new.user_id; end if;
  if tg_op = 'UPDATE' and tg_table_name = 'mfa_totp' and new.secret is not distinct from old.secret then return null; end if;
  update sessions set ended_at = now(), ended_by = coalesce(ended_by, 'credential change')
   where user_id = uid and ended_at is null
     and jti is distinct from nullif(current_setting('gatehouse.keep_session', true), '');
  return null;
end
$$;
drop trigger if exists mfa_totp_follows on mfa_totp;
create trigger mfa_totp_follows after insert or update of secret or delete on mfa_totp
  for each row execute function end_sessions_on_factor_change();
drop trigger if exists webauthn_credentials_follow on webauthn_credentials;
create trigger webauthn_credentials_follow after insert or delete on webauthn_credentials
  for each row execute function end_sessions_on_factor_change();
