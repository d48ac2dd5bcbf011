-- Gatehouse Edge (issues 46, 47): the OSDP readers of an edge controller's bus as the edge last reported them
-- (address, identity from PDID, capabilities from PDCAP, secure channel state, counters), for the Hardware screens.
alter table edge_controllers add column if not exists osdp_readers jsonb;
alter table edge_controllers add column if not exists osdp_readers_at timestamptz;
