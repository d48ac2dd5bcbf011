-- The site at any moment (issue 50): who was in which zone at T leaves out a person an operator forgave after their
-- last swipe and by T (server/db/queries/floorPlanHistory.ts zonesAt), read from the audited forgives up to T.
create index if not exists audit_log_forgive_at on audit_log(client_id, at) where entity = 'access zone' and action = 'forgive';
