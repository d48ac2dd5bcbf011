-- Issue 31, alarm handling measured: the alarm settings singleton (contract/resources/alarmSettings.ts), one row per
-- client made with these defaults when first read — target minutes per priority to acknowledge and to process an
-- alarm (P4 stands for 4 and beyond); the alarm handling report [0.6.7.0] counts the alarms past them. The report's
-- privilege goes to the roles that hold the event report [0.6.2.0]; the settings' [0.4.7.6] to the roles that may
-- assign privileges to roles [0.3.6.4] (administrators: an operator does not set the targets they are measured
-- against). New installations get both from the seed's roles.
create table if not exists alarm_settings (
  id serial primary key, client_id int not null unique references clients(id),
  ack_p1_minutes int not null default 1 check (ack_p1_minutes between 1 and 10080),
  process_p1_minutes int not null default 15 check (process_p1_minutes between 1 and 10080),
  ack_p2_minutes int not null default 5 check (ack_p2_minutes between 1 and 10080),
  process_p2_minutes int not null default 60 check (process_p2_minutes between 1 and 10080),
  ack_p3_minutes int not null default 15 check (ack_p3_minutes between 1 and 10080),
  process_p3_minutes int not null default 240 check (process_p3_minutes between 1 and 10080),
  ack_p4_minutes int not null default 60 check (ack_p4_minutes between 1 and 10080),
  process_p4_minutes int not null default 1440 check (process_p4_minutes between 1 and 10080),
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
-- the report reads the alarms of a period by their raising time
create index if not exists alarms_raised on alarms(client_id, raised_at);
insert into role_privileges (role_code, privilege) select role_code, '0.6.7.0' from role_privileges where privilege = '0.6.2.0' on conflict do nothing;
insert into role_privileges (role_code, privilege) select role_code, '0.4.7.6' from role_privileges where privilege = '0.3.6.4' on conflict do nothing;
