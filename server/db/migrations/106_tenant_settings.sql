-- A tenant's settings as catalogue singletons (contract/resources/settings.ts): one row per client, made with these
-- defaults the first time it is read.
create table if not exists attendance_properties (
  id serial primary key, client_id int not null unique references clients(id), round_minutes int not null default 1,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create table if not exists attendance_clock_doors (
  properties_id int not null references attendance_properties(id) on delete cascade,
  door_id int not null references doors(id) on delete cascade,
  primary key (properties_id, door_id)
);
create table if not exists visitor_properties (
  id serial primary key, client_id int not null unique references clients(id),
  require_photo boolean not null default false, require_id_number boolean not null default false,
  require_host_identity boolean not null default false, days_ahead int not null default 366,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
