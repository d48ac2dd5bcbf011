-- Issue 49, SAML 2.0 single logout, signed AuthnRequests and encrypted assertions (server/auth/iam/saml.ts,
-- samlLogout.ts, spKeys.ts). A provider's single logout address and whether Gatehouse signs its requests to it and
-- requires its assertions encrypted (Gatehouse's key pair is the installation's, sealed in server_secrets).
alter table identity_providers add column if not exists slo_url text;
alter table identity_providers add column if not exists sign_requests boolean not null default false;
alter table identity_providers add column if not exists encrypt_assertions boolean not null default false;
-- The person a SAML sign-in named (NameID, its format, the provider's SessionIndex), carried by the ticket to its session.
alter table iam_tickets add column if not exists saml_subject text;
-- Who a SAML session is at its provider: for the LogoutRequest Gatehouse sends at sign-out, and to find the sessions a
-- provider's LogoutRequest ends.
create table if not exists saml_sessions (
  jti text primary key,
  provider text not null,
  name_id text not null,
  name_id_format text,
  session_index text,
  created_at timestamptz not null default now());
create index if not exists saml_sessions_person on saml_sessions (provider, name_id);
-- The LogoutRequests Gatehouse sent: a LogoutResponse must answer one of them, once, within ten minutes.
create table if not exists saml_logouts (
  request_id text primary key,
  provider text not null,
  expires_at timestamptz not null,
  used_at timestamptz);
