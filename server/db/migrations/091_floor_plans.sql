-- Floor plans (issue 12): a picture of a floor (a data: URL, like photos) and the doors pinned on it.
create table if not exists floor_plans (
  id serial primary key, client_id int not null references clients(id), name text not null, description text, image text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists floor_plans_client_name on floor_plans(client_id, name);
create table if not exists floor_plan_doors (
  id serial primary key, client_id int not null references clients(id), floor_plan_id int not null references floor_plans(id) on delete cascade,
  door_id int not null references doors(id) on delete cascade, x int not null, y int not null
);
create index if not exists floor_plan_doors_plan on floor_plan_doors(floor_plan_id);
create index if not exists floor_plan_doors_door on floor_plan_doors(door_id);
