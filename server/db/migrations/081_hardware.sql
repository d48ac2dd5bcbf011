-- Hardware on the catalogue (issue 12): the card readers, inputs and outputs wired to controllers, each at a door
-- (readers always; inputs and outputs may stand alone). A controller or door still wired is not deleted (no cascade).
create table if not exists card_readers (
  id serial primary key, client_id int not null references clients(id), name text not null,
  door_id int not null references doors(id), direction text not null default 'entry',
  controller_id int not null references controllers(id), address int default 0, location text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists card_readers_client_name on card_readers(client_id, name);
create index if not exists card_readers_door on card_readers(door_id);

create table if not exists inputs (
  id serial primary key, client_id int not null references clients(id), name text not null, kind text not null,
  controller_id int not null references controllers(id), door_id int references doors(id),
  location text, normally_closed boolean not null default true, supervised boolean not null default false,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists inputs_client_name on inputs(client_id, name);

create table if not exists outputs (
  id serial primary key, client_id int not null references clients(id), name text not null, kind text not null,
  controller_id int not null references controllers(id), door_id int references doors(id), location text, pulse_seconds int default 5,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists outputs_client_name on outputs(client_id, name);

-- every existing door gets its entry reader, its contact and its strike on its client's first controller
insert into card_readers (client_id, name, door_id, direction, controller_id, address)
  select d.client_id, d.name || ' reader', d.id, 'entry', c.id, 0 from doors d
  join lateral (select id from controllers c where c.client_id = d.client_id order by id limit 1) c on true
  on conflict do nothing;
insert into inputs (client_id, name, kind, controller_id, door_id)
  select d.client_id, d.name || ' contact', 'door-contact', c.id, d.id from doors d
  join lateral (select id from controllers c where c.client_id = d.client_id order by id limit 1) c on true
  on conflict do nothing;
insert into outputs (client_id, name, kind, controller_id, door_id, pulse_seconds)
  select d.client_id, d.name || ' strike', 'strike', c.id, d.id, 5 from doors d
  join lateral (select id from controllers c where c.client_id = d.client_id order by id limit 1) c on true
  on conflict do nothing;
