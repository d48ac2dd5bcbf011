-- Events are append-only with a monotonically increasing id (bigserial); history reads walk (client_id, id desc)
-- or (client_id, event_code, id desc). Alarms are keyed by the event that raised them; open ones sit in a partial
-- index. Alarm types: client_id null is the default of every tenant (filled from contract DEFAULT_ALARM_TYPES at
-- start), a tenant row overrides it. Every alarm keeps its history: raised, viewed, acknowledged, processed.
create table if not exists events (
  id bigserial primary key, client_id int not null references clients(id), event_code int not null,
  event_source_id text not null, event_source_name text, event_point_id text not null, event_point_name text,
  message text not null default '', alert boolean not null default false, priority int not null default 100,
  at timestamptz not null default now());
create index if not exists events_client_id on events(client_id, id desc);
create index if not exists events_client_code on events(client_id, event_code, id desc);
create index if not exists events_client_point on events(client_id, event_point_id, id desc);
create table if not exists alarm_types (
  id serial primary key, client_id int references clients(id), event_code int not null, name text not null,
  priority int not null, instructions text not null, updated_at timestamptz not null default now());
create unique index if not exists alarm_types_code on alarm_types(coalesce(client_id, 0), event_code);
create table if not exists alarms (
  event_id bigint primary key references events(id), client_id int not null references clients(id),
  event_code int not null, event_point_id text not null, priority int not null, instructions text,
  state text not null default 'raised' check (state in ('raised', 'acknowledged', 'processed')),
  raised_at timestamptz not null, acknowledged_at timestamptz, acknowledged_by text,
  processed_at timestamptz, processed_by text, note text);
create index if not exists alarms_open on alarms(client_id, priority, raised_at desc) where state <> 'processed';
create index if not exists alarms_point on alarms(client_id, event_point_id) where state <> 'processed';
create table if not exists alarm_history (
  id bigserial primary key, alarm_id bigint not null references alarms(event_id), client_id int not null,
  action text not null check (action in ('raised', 'viewed', 'acknowledged', 'processed')),
  actor text, note text, at timestamptz not null default now());
create index if not exists alarm_history_alarm on alarm_history(alarm_id, id);
