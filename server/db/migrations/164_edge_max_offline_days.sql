-- Gatehouse Edge (issue 47): per client, how many days an edge controller cut off from the server keeps deciding from
-- its snapshot before each door follows its degraded policy (Central properties, general; sent in the snapshot).
alter table central_properties add column if not exists edge_max_offline_days int not null default 7;
alter table central_properties drop constraint if exists central_properties_edge_max_offline_days;
alter table central_properties add constraint central_properties_edge_max_offline_days check (edge_max_offline_days between 0 and 365);
