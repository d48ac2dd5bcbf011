-- Server section settings as catalogue singletons (contract/resources/settings.ts): one row per client, made with these
-- defaults the first time it is read. Central properties: how long records are kept (0: for ever); floor plan
-- properties: how the monitor shows plans (the plan it opens with is emptied when that plan is deleted); company ID:
-- what is printed on credentials.
create table if not exists central_properties (
  id serial primary key, client_id int not null unique references clients(id),
  event_retention_days int not null default 0 check (event_retention_days between 0 and 3650),
  visitor_retention_days int not null default 0 check (visitor_retention_days between 0 and 3650),
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create table if not exists floor_plan_properties (
  id serial primary key, client_id int not null unique references clients(id),
  default_plan_id int references floor_plans(id) on delete set null,
  show_door_names boolean not null default true,
  pin_size text not null default 'medium' check (pin_size in ('small', 'medium', 'large')),
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create table if not exists company_identity (
  id serial primary key, client_id int not null unique references clients(id),
  company_name text, site_code int check (site_code between 0 and 65535),
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
