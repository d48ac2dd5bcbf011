-- Gatehouse Edge (issue 47): what a door of an edge controller does once the controller has been cut off from the
-- server for longer than its snapshot may be trusted (7 days): keep deciding from it, facility code only, or locked.
alter table doors add column if not exists degraded_policy text not null default 'keep';
alter table doors drop constraint if exists doors_degraded_policy;
alter table doors add constraint doors_degraded_policy check (degraded_policy in ('keep', 'facility', 'locked'));
