-- The auth epoch announces itself when it moves (issue 13: the request path). A server whose database no other
-- process writes (the embedded PGlite: this process is its only connection) listens instead of reading the counter
-- on every request; a server on PostgreSQL, which other servers share, still reads it per request. A trigger on the
-- counter itself, so every bump is announced, whoever makes it; the notice reaches listeners when its transaction
-- commits, and never when it rolls back.
create or replace function notify_auth_epoch() returns trigger language plpgsql as $$
begin
  perform pg_notify('auth_epoch', '');
  return null;
end $$;

drop trigger if exists auth_epoch_announce on auth_epoch;
create trigger auth_epoch_announce after insert or update or delete or truncate on auth_epoch for each statement execute function notify_auth_epoch();
