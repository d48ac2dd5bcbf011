-- Issue 49: each session says how it was signed in (Manage → Sessions, the activity report): 'password',
-- 'password+totp', 'password+recovery', 'passkey', 'oidc', 'saml' for operators, 'api-key' for service accounts; and for
-- an identity provider's sign-in, which provider.
alter table sessions add column if not exists sign_in_method text not null default 'password';
alter table sessions add column if not exists sign_in_provider text;
update sessions set sign_in_method = 'api-key' where jti like 'apikey:%' and sign_in_method <> 'api-key';
