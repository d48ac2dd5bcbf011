-- Logical blocks (issue 12): "when this happens [while this schedule is open] then do that", run by the server on
-- every stored event (server/logic/blocks.ts).
create table if not exists logical_blocks (
  id serial primary key, client_id int not null references clients(id), name text not null,
  active boolean not null default true,
  trigger text not null default 'input.active',
  input_id int references inputs(id), door_id int references doors(id), schedule_id int references schedules(id),
  action text not null default 'pulse-output',
  output_id int references outputs(id), action_door_id int references doors(id), alarm_text text, description text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists logical_blocks_client_name on logical_blocks(client_id, name);
create index if not exists logical_blocks_client on logical_blocks(client_id) where active;
