-- Daily attendance [3.2.0] reads each identity's granted swipes (event 5000) of a day: an index over just those.
create index if not exists events_granted_identity_at on events(client_id, identity_id, at) where event_code = 5000 and identity_id is not null;
