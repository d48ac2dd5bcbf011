-- The backups' history (audit rows of no client: backups, restores, auto-backup settings), newest first, for the
-- backup screen (API.platformHistory): read backwards through this index, never past the clients' rows.
create index if not exists audit_log_platform on audit_log (id) where client_id is null;
