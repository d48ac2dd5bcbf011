-- Event history at scale (issue 4, bench/history.ts over 1,000,000 events): a time range walks (client_id, at desc,
-- id desc) instead of the whole id index, and "alarms only" (about one event in a thousand) a partial index of the
-- alerts instead of a scan of every event.
create index if not exists events_client_at on events(client_id, at desc, id desc);
create index if not exists events_client_alert on events(client_id, id desc) where alert;
