-- Access configuration (issue 12): schedules with weekly windows and windows per kind of special day, special
-- dates, card formats with their parity bits, access zones, access groups (doors × schedule, identities as
-- members), interlocking groups; doors get a mode, an entry and an exit zone and a card format; every swipe event
-- keeps the identity, the decision and its reason.
create table if not exists schedules (
  id serial primary key, client_id int not null references clients(id), name text not null, description text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists schedules_client_name on schedules(client_id, name);
create table if not exists schedule_windows (
  id serial primary key, schedule_id int not null references schedules(id) on delete cascade, client_id int not null references clients(id),
  day text not null, start_time text not null, end_time text not null
);
create index if not exists schedule_windows_schedule on schedule_windows(schedule_id);
create table if not exists schedule_special_windows (
  id serial primary key, schedule_id int not null references schedules(id) on delete cascade, client_id int not null references clients(id),
  kind text not null, start_time text not null, end_time text not null
);
create index if not exists schedule_special_windows_schedule on schedule_special_windows(schedule_id);

create table if not exists special_dates (
  id serial primary key, client_id int not null references clients(id), name text not null, date date not null,
  yearly boolean not null default false, kind text not null,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create index if not exists special_dates_client on special_dates(client_id, date);

create table if not exists card_formats (
  id serial primary key, client_id int not null references clients(id), name text not null, description text, bits int not null,
  facility_start int, facility_length int, card_start int not null, card_length int not null,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists card_formats_client_name on card_formats(client_id, name);
create table if not exists card_format_parity (
  id serial primary key, card_format_id int not null references card_formats(id) on delete cascade, client_id int not null references clients(id),
  bit int not null, type text not null, over_start int not null, over_length int not null
);
create index if not exists card_format_parity_format on card_format_parity(card_format_id);

create table if not exists access_zones (
  id serial primary key, client_id int not null references clients(id), name text not null, description text,
  anti_passback text not null default 'off', forgive_minutes int not null default 0,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists access_zones_client_name on access_zones(client_id, name);

alter table doors add column if not exists mode text not null default 'card';
alter table doors add column if not exists entry_zone_id int references access_zones(id);
alter table doors add column if not exists exit_zone_id int references access_zones(id);
alter table doors add column if not exists card_format_id int references card_formats(id);

create table if not exists access_groups (
  id serial primary key, client_id int not null references clients(id), name text not null, description text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists access_groups_client_name on access_groups(client_id, name);
create table if not exists access_group_doors (
  id serial primary key, access_group_id int not null references access_groups(id) on delete cascade, client_id int not null references clients(id),
  door_id int not null references doors(id), schedule_id int not null references schedules(id)
);
create index if not exists access_group_doors_group on access_group_doors(access_group_id);
create index if not exists access_group_doors_schedule on access_group_doors(schedule_id);
create table if not exists access_group_members (
  access_group_id int not null references access_groups(id) on delete cascade,
  identity_id int not null references identities(id) on delete cascade,
  primary key (access_group_id, identity_id)
);
create index if not exists access_group_members_identity on access_group_members(identity_id);

create table if not exists interlocks (
  id serial primary key, client_id int not null references clients(id), name text not null, description text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists interlocks_client_name on interlocks(client_id, name);
create table if not exists interlock_doors (
  interlock_id int not null references interlocks(id) on delete cascade,
  door_id int not null references doors(id) on delete cascade,
  primary key (interlock_id, door_id)
);

alter table events add column if not exists identity_id int;
alter table events add column if not exists decision text;
alter table events add column if not exists reason text;
alter table events add column if not exists swipe jsonb;
