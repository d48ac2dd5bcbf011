-- Alarm groups (issue 12): inputs armed and disarmed together. An active input of an armed group raises an
-- intrusion alarm (event 2005, its default alarm type is filled by the server at start).
create table if not exists alarm_groups (
  id serial primary key, client_id int not null references clients(id), name text not null, description text,
  state text not null default 'disarmed', state_changed_at timestamptz, state_changed_by text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
  constraint alarm_groups_state check (state in ('armed', 'disarmed'))
);
create unique index if not exists alarm_groups_client_name on alarm_groups(client_id, name);
create table if not exists alarm_group_inputs (
  alarm_group_id int not null references alarm_groups(id) on delete cascade,
  input_id int not null references inputs(id) on delete cascade,
  primary key (alarm_group_id, input_id)
);
create index if not exists alarm_group_inputs_input on alarm_group_inputs(input_id);
