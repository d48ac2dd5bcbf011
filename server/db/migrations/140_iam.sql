-- Issue 49, IAM mode: operators signed in by the company's identity provider (server/auth/iam).
-- A sign-in in flight: the state (hashed), the nonce and PKCE verifier it was started with, the browser it was
-- started in (a cookie's hash) and where the console goes after it; one use, short-lived.
create table if not exists iam_flows (
  state_hash text primary key,
  provider text not null,
  nonce text not null,
  code_verifier text not null,
  binding_hash text not null,
  redirect_uri text not null,
  return_path text,
  expires_at timestamptz not null,
  used_at timestamptz);
create index if not exists iam_flows_expires on iam_flows (expires_at);
-- The provider's person behind an operator account (created just in time on a first sign-in).
create table if not exists iam_accounts (
  provider text not null,
  subject text not null,
  user_id int not null references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  signed_in_at timestamptz not null default now(),
  primary key (provider, subject));
create index if not exists iam_accounts_user on iam_accounts (user_id);
-- A signed-in person handed to the console: exchanged once, within a minute, by the browser that started the flow.
create table if not exists iam_tickets (
  ticket_hash text primary key,
  user_id int not null references users(id) on delete cascade,
  provider text not null,
  binding_hash text not null,
  id_token text,
  return_path text,
  expires_at timestamptz not null,
  used_at timestamptz);
-- The provider's ID token of a session, for RP-initiated logout (id_token_hint) when the session signs out.
create table if not exists iam_session_tokens (
  jti text primary key,
  provider text not null,
  id_token text not null,
  created_at timestamptz not null default now());
-- Grants made by a provider's group mapping (replaced at each sign-in), apart from those an administrator gives.
alter table user_grants add column if not exists iam_provider text;
