-- The visitor section's set-up lists (visitor tenants 1.1.x, visitor credentials 1.2.x, visit types 1.3.x) and the
-- attendance set-up (work schedules 3.1.x, teams 3.0.x, leave categories 3.7.x): catalogue resources
-- (contract/resources/visitorSetup.ts, attendance.ts). None is deleted (the spec gives no delete code): `active`.
create table if not exists visitor_tenants (
  id serial primary key, client_id int not null references clients(id), name text not null, location text,
  contact_name text, contact_email text, phone text, active boolean not null default true, note text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists visitor_tenants_client_name on visitor_tenants(client_id, name);

create table if not exists visitor_credentials (
  id serial primary key, client_id int not null references clients(id), number text not null, kind text not null default 'card',
  state text not null default 'available', note text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists visitor_credentials_client_number on visitor_credentials(client_id, number);

create table if not exists visit_types (
  id serial primary key, client_id int not null references clients(id), name text not null, description text,
  default_minutes int not null default 60, needs_approval boolean not null default false, needs_escort boolean not null default false,
  active boolean not null default true,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists visit_types_client_name on visit_types(client_id, name);

create table if not exists work_schedules (
  id serial primary key, client_id int not null references clients(id), name text not null, description text,
  break_minutes int not null default 60, grace_minutes int not null default 5, active boolean not null default true,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists work_schedules_client_name on work_schedules(client_id, name);
create table if not exists work_schedule_shifts (
  id serial primary key, work_schedule_id int not null references work_schedules(id) on delete cascade, client_id int not null references clients(id),
  day text not null, start_time text not null, end_time text not null
);
create index if not exists work_schedule_shifts_schedule on work_schedule_shifts(work_schedule_id);

create table if not exists teams (
  id serial primary key, client_id int not null references clients(id), name text not null, description text,
  work_schedule_id int not null references work_schedules(id), active boolean not null default true,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists teams_client_name on teams(client_id, name);
create index if not exists teams_work_schedule on teams(work_schedule_id);
create table if not exists team_members (
  team_id int not null references teams(id) on delete cascade,
  identity_id int not null references identities(id) on delete cascade,
  primary key (team_id, identity_id)
);
create index if not exists team_members_identity on team_members(identity_id);

create table if not exists leave_categories (
  id serial primary key, client_id int not null references clients(id), name text not null, code text not null, description text,
  paid boolean not null default true, days_per_year int, active boolean not null default true,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists leave_categories_client_name on leave_categories(client_id, name);
create unique index if not exists leave_categories_client_code on leave_categories(client_id, code);

-- leave (3.8.x): a member of staff's days off in one category
create table if not exists leave_records (
  id serial primary key, client_id int not null references clients(id),
  identity_id int not null references identities(id) on delete cascade, category_id int not null references leave_categories(id),
  from_date date not null, to_date date not null, note text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create index if not exists leave_records_client_from on leave_records(client_id, from_date desc);
create index if not exists leave_records_identity on leave_records(identity_id);
create index if not exists leave_records_category on leave_records(category_id);

-- the credential store (0.6.6.3–5): cards and fobs held in stock until given to an identity
create table if not exists credential_stock (
  id serial primary key, client_id int not null references clients(id), number text not null, type text not null default 'card',
  facility_code int, batch text, spoilt boolean not null default false, note text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists credential_stock_client_number on credential_stock(client_id, number);
