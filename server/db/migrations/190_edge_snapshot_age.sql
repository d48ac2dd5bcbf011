-- Gatehouse Edge (issue 47): the snapshot's real age on the Controllers list. When the server built the snapshot
-- version it last built for a controller (a version only grows when its hash changes, so this is when its rules last
-- changed), and what the edge reported it applied: the version, when the server built it and when the edge applied it.
alter table edge_controllers add column if not exists snapshot_built_at timestamptz;
alter table edge_controllers add column if not exists applied_built_at timestamptz;
alter table edge_controllers add column if not exists applied_at timestamptz;
