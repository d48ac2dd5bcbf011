-- The operator ↔ member of staff link by e-mail (issue 50: the leave list's `mine` scope, 3.8.3's own rows, and the
-- signed-in user's identityId in /me and each sign-in) looks up a client's identity by its e-mail: an index, not a
-- scan of 200,000 identities on every sign-in.
create index if not exists identities_client_email on identities (client_id, lower(email)) where email is not null;
