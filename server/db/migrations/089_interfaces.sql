-- Interfaces (issue 12): boards on a controller's bus, one per bus address, with their timing and supervision.
create table if not exists interfaces (
  id serial primary key, client_id int not null references clients(id), name text not null, kind text not null default 'reader',
  controller_id int not null references controllers(id), bus_address int not null, serial_number text, location text,
  poll_ms int not null default 200, offline_after_s int not null default 10, supervised boolean not null default true, tamper_alarm boolean not null default true,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists interfaces_client_name on interfaces(client_id, name);
create unique index if not exists interfaces_controller_address on interfaces(controller_id, bus_address);
