-- The site at any moment (issue 50, server/db/queries/floorPlanHistory.ts): each door's last state event up to a
-- moment is one index probe per door (its source, newest first); the threat level and the doors' modes at a moment
-- walk the few audit rows that change them, not the whole audit trail; the alarms still open at a moment are the
-- ones open now plus those processed since it (alarms_raised, migration 129, lists a period's alarms).
create index if not exists events_door_state_at on events(client_id, event_source_id, at desc, id desc) where event_code between 6000 and 6005;
create index if not exists audit_log_threat_at on audit_log(client_id, at desc, id desc) where entity = 'threat level';
create index if not exists audit_log_door_mode_at on audit_log(client_id, at desc, id desc) where entity = 'door' and action in ('update', 'lockdown', 'release lockdown');
create index if not exists alarms_processed_at on alarms(client_id, processed_at) where processed_at is not null;
