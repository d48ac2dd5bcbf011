-- Threat levels (issue 12, beyond the spec as the anchors have it): ranked levels per client (1 the mildest), each
-- saying what the doors do while it is in force — nothing (an announced state), card and PIN everywhere, or held
-- locked — with access groups whose members still pass (responders). `threat_level_state` is the one level in force
-- per client: for the whole client or one division (a site, with the divisions inside it), who set it and when,
-- and when it reverts by itself (null: until lowered).
create table if not exists threat_levels (
  id serial primary key, client_id int not null references clients(id), name text not null, rank int not null,
  mode text not null default 'card', description text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists threat_levels_client_name on threat_levels(client_id, name);
create unique index if not exists threat_levels_client_rank on threat_levels(client_id, rank);
create table if not exists threat_level_exempt_groups (
  threat_level_id int not null references threat_levels(id) on delete cascade,
  access_group_id int not null references access_groups(id) on delete cascade,
  primary key (threat_level_id, access_group_id)
);
create index if not exists threat_level_exempt_groups_group on threat_level_exempt_groups(access_group_id);
create table if not exists threat_level_state (
  client_id int primary key references clients(id) on delete cascade,
  level_id int not null references threat_levels(id),
  division_id int references divisions(id),
  set_at timestamptz not null default now(),
  set_by text not null,
  until timestamptz
);
