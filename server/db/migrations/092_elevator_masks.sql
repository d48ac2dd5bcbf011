-- Elevator masking (issue 12): floors of an elevator (its car's card reader) that need no card while a schedule is open.
create table if not exists elevator_masks (
  id serial primary key, client_id int not null references clients(id), name text not null,
  reader_id int not null references card_readers(id), floors text not null, schedule_id int not null references schedules(id),
  description text, created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists elevator_masks_client_name on elevator_masks(client_id, name);
create index if not exists elevator_masks_reader on elevator_masks(reader_id);
