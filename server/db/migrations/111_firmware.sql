-- Firmware [0.7.1.0] (contract/resources/firmware.ts): a client's firmware images (the file as a data: URL), the
-- controllers each is rolled out to, and on each controller the version it was sent and not yet installed (the
-- hardware simulator installs it: server/simulator/hardware.ts `firmwareStep`).
create table if not exists firmware_images (
  id serial primary key, client_id int not null references clients(id),
  version text not null, file text not null, notes text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
  unique (client_id, version)
);
create table if not exists firmware_rollouts (
  firmware_id int not null references firmware_images(id) on delete cascade,
  controller_id int not null references controllers(id) on delete cascade,
  primary key (firmware_id, controller_id)
);
alter table controllers add column if not exists firmware_target text;
alter table controllers add column if not exists firmware_sent_at timestamptz;
alter table controllers add column if not exists firmware_started boolean not null default false;
