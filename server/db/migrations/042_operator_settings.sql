-- Operator settings per client (issue 11, spec 0.3.7.0): password policy, lockout and session lifetimes. A
-- client without a row uses the server's defaults (environment: LOCKOUT_ATTEMPTS, LOCKOUT_MINUTES,
-- JWT_LIFETIME_S). The server enforces them at sign-in, change and reset of passwords, and on every request
-- (session lifetime and idle timeout). Password history keeps the last hashes per user.
create table if not exists operator_settings (
  client_id int primary key references clients(id) on delete cascade,
  password_min_length int not null default 8,
  password_classes int not null default 3,
  password_history int not null default 0,
  password_expiry_days int not null default 0,
  lockout_attempts int not null default 5,
  lockout_minutes int not null default 15,
  session_lifetime_minutes int not null default 480,
  idle_timeout_minutes int not null default 0,
  updated_at timestamptz not null default now());
create table if not exists password_history (
  id bigserial primary key,
  user_id int not null references users(id) on delete cascade,
  password_hash text not null,
  at timestamptz not null default now());
create index if not exists password_history_user on password_history (user_id, id desc);
alter table users add column if not exists password_changed_at timestamptz not null default now();
-- settings change: the request path's cached sessions are checked again
drop trigger if exists auth_epoch_operator_settings on operator_settings;
create trigger auth_epoch_operator_settings after insert or update or delete on operator_settings for each statement execute function bump_auth_epoch();
