-- Overrides (issue 12): doors held in a mode for a window, then back by themselves. applied_start_at and
-- applied_end_at are the server's own marks (server/access/overrides.ts): when it unlocked or locked the doors at the
-- start and gave them back at the end, so each happens once even with several servers.
create table if not exists door_overrides (
  id serial primary key, client_id int not null references clients(id), name text not null,
  mode text not null default 'unlocked', starts_at timestamptz not null, ends_at timestamptz not null, reason text,
  applied_start_at timestamptz, applied_end_at timestamptz,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
  constraint door_overrides_window check (ends_at > starts_at)
);
create index if not exists door_overrides_client_window on door_overrides (client_id, ends_at);
create index if not exists door_overrides_pending on door_overrides (starts_at) where applied_end_at is null;
create table if not exists door_override_doors (
  override_id int not null references door_overrides(id) on delete cascade,
  door_id int not null references doors(id) on delete cascade,
  primary key (override_id, door_id)
);
create index if not exists door_override_doors_door on door_override_doors (door_id);
