-- A list filtered by status (one identity in ten is inactive at the 200,000-row bench) counts its matches up to the
-- cap (LIST_COUNT_CAP): without this index that read 100,000 rows of the table to find 10,001 inactive ones; with it,
-- and the table vacuumed (server/db/maintenance.ts), it reads 10,001 index entries and no row (issue 13).
create index if not exists identities_client_status on identities (client_id, status, division_id);
