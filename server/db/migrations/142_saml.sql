-- Issue 49, IAM mode with SAML 2.0 (server/auth/iam/saml.ts). A sign-in in flight: the RelayState (hashed) it was
-- sent with, the AuthnRequest's ID the answer must be InResponseTo, the browser that started it (a cookie's hash, asked
-- again when the ticket is exchanged) and where the console goes after it; one use, ten minutes.
create table if not exists saml_flows (
  relay_hash text primary key,
  provider text not null,
  request_id text not null,
  binding_hash text not null,
  return_path text,
  expires_at timestamptz not null,
  used_at timestamptz);
create index if not exists saml_flows_expires on saml_flows (expires_at);
-- Every assertion taken, by its provider and ID, until it expires: the same assertion is never taken twice.
create table if not exists saml_assertions (
  provider text not null,
  assertion_id text not null,
  expires_at timestamptz not null,
  primary key (provider, assertion_id));
