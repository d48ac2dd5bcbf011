-- The timesheet (contract/resources/attendance.ts timesheetResource): a member of staff's day as Build Timesheet [3.3]
-- wrote it from daily attendance, amended by HR [3.4] with the reason. One row per identity and day.
create table if not exists timesheet_entries (
  id serial primary key, client_id int not null references clients(id),
  identity_id int not null references identities(id) on delete cascade, identity_name text not null, employee_no text,
  team_id int references teams(id) on delete set null, team text not null,
  day date not null, shift_start text, shift_end text, grace_minutes int not null default 0,
  first_in timestamptz, last_out timestamptz, worked_minutes int, late_minutes int, status text not null, leave text,
  amended boolean not null default false, amend_reason text, amended_by int references users(id),
  built_by int references users(id), built_at timestamptz not null default now(),
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists timesheet_entries_identity_day on timesheet_entries(client_id, identity_id, day);
create index if not exists timesheet_entries_client_day on timesheet_entries(client_id, day desc, id desc);
