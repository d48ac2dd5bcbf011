-- Service accounts and web hooks (issue 11, Manage).
--
-- A service account belongs to one client and is backed by a user of kind 'service' (so its grants, sessions and
-- privileges are the ones every other user has); its API key is `gh_<key_id>_<secret>`: the key id finds the row,
-- only sha256(secret) is kept. An integration's calls with a key run in one session per key (jti 'apikey:<key_id>'),
-- listed on the service-account sessions screen; ending it, disabling the account or revoking the key refuses the
-- next call.
create table if not exists service_accounts (
  id serial primary key,
  client_id int not null references clients(id),
  user_id int not null unique references users(id),
  name text not null,
  description text,
  -- the code of a role of the account's client (roles are per client, migration 040: client_role() resolves it)
  role text not null,
  active boolean not null default true,
  key_id text unique,
  key_hash text,
  key_prefix text,
  key_issued_at timestamptz,
  key_revoked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index if not exists service_accounts_name on service_accounts(client_id, name);

-- the backing user follows the account's name and role (its grant in the account's client)
create or replace function service_account_sync() returns trigger language plpgsql as $$
begin
  if new.name is distinct from old.name then update users set name = new.name where id = new.user_id; end if;
  if new.role is distinct from old.role then update user_grants set role_code = new.role where user_id = new.user_id and client_id = new.client_id; end if;
  return null;
end $$;
drop trigger if exists service_account_sync on service_accounts;
create trigger service_account_sync after update on service_accounts for each row execute function service_account_sync();

-- the device interface is a privilege held through a role (contract/privileges.ts PRIV.deviceIngest): a template
-- role every client gets a copy of (migration 040), and the administrators' roles hold it too
insert into role_templates (code, name) values ('device-ingest', 'Device ingest (service account)') on conflict (code) do nothing;
insert into role_template_privileges (code, privilege) values ('device-ingest', '0.5.6.6') on conflict do nothing;
insert into role_template_privileges (code, privilege) select 'administrator', '0.5.6.6' where exists (select 1 from role_templates where code = 'administrator') on conflict do nothing;
select client_role(c.id, 'device-ingest') from clients c;
insert into role_privileges (role_id, privilege) select r.id, '0.5.6.6' from roles r where r.code = 'administrator' on conflict do nothing;

-- Web hooks: per client, which event types, where to, signed with its secret.
create table if not exists web_hooks (
  id serial primary key,
  client_id int not null references clients(id),
  name text not null,
  description text,
  url text not null,
  secret text not null,
  active boolean not null default true,
  alarm_raised boolean not null default false,
  alarm_acknowledged boolean not null default false,
  alarm_processed boolean not null default false,
  access_granted boolean not null default false,
  access_denied boolean not null default false,
  door_state boolean not null default false,
  identity_changed boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index if not exists web_hooks_name on web_hooks(client_id, name);
create index if not exists web_hooks_client on web_hooks(client_id) where active;

-- The durable outbox: one row per (hook, event), written by statement triggers in the transaction that stores the
-- event, alarm change or identity change, so nothing is lost by a restart; a worker delivers it.
create table if not exists webhook_outbox (
  id bigserial primary key,
  client_id int not null references clients(id),
  hook_id int not null references web_hooks(id) on delete cascade,
  event_type text not null,
  body jsonb not null,
  state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
  attempts int not null default 0,
  next_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  delivered_at timestamptz
);
create index if not exists webhook_outbox_due on webhook_outbox(next_at, id) where state = 'pending';
create index if not exists webhook_outbox_hook on webhook_outbox(hook_id, id desc);

-- Every delivery attempt (the histories screen).
create table if not exists webhook_attempts (
  id bigserial primary key,
  client_id int not null references clients(id),
  hook_id int not null references web_hooks(id) on delete cascade,
  outbox_id bigint not null references webhook_outbox(id) on delete cascade,
  event_type text not null,
  attempt int not null,
  status int,
  ok boolean not null,
  latency_ms int not null,
  error text,
  response text,
  at timestamptz not null default now()
);
create index if not exists webhook_attempts_hook on webhook_attempts(hook_id, id desc);

-- enqueue: one insert … select per statement (a whole ingest batch is one statement), joined to the hooks that want it
create or replace function webhook_enqueue_events() returns trigger language plpgsql as $$
begin
  insert into webhook_outbox (client_id, hook_id, event_type, body)
  select h.client_id, h.id, x.type, jsonb_build_object('type', x.type, 'clientId', x.client_id, 'occurredAt', x.at, 'data', jsonb_build_object(
      'eventId', x.id, 'eventCode', x.event_code, 'sourceId', x.event_source_id, 'sourceName', x.event_source_name,
      'pointId', x.event_point_id, 'pointName', x.event_point_name, 'message', x.message))
    from (select n.*, case when n.event_code = 5000 then 'access.granted' when n.event_code between 5001 and 5003 then 'access.denied'
            when n.event_code between 6000 and 6005 then 'door.state' end as type from new_rows n) x
    join web_hooks h on h.client_id = x.client_id and h.active
   where (x.type = 'access.granted' and h.access_granted) or (x.type = 'access.denied' and h.access_denied) or (x.type = 'door.state' and h.door_state);
  return null;
end $$;
drop trigger if exists webhook_events on events;
create trigger webhook_events after insert on events referencing new table as new_rows for each statement execute function webhook_enqueue_events();

create or replace function webhook_enqueue_alarms() returns trigger language plpgsql as $$
begin
  insert into webhook_outbox (client_id, hook_id, event_type, body)
  select h.client_id, h.id, 'alarm.' || x.action, jsonb_build_object('type', 'alarm.' || x.action, 'clientId', x.client_id, 'occurredAt', x.at, 'data', jsonb_build_object(
      'eventId', x.alarm_id, 'eventCode', a.event_code, 'pointId', a.event_point_id, 'priority', a.priority, 'state', x.action,
      'actor', x.actor, 'note', x.note, 'message', e.message))
    from new_rows x
    join alarms a on a.event_id = x.alarm_id
    join events e on e.id = x.alarm_id
    join web_hooks h on h.client_id = x.client_id and h.active
   where (x.action = 'raised' and h.alarm_raised) or (x.action = 'acknowledged' and h.alarm_acknowledged) or (x.action = 'processed' and h.alarm_processed);
  return null;
end $$;
drop trigger if exists webhook_alarms on alarm_history;
create trigger webhook_alarms after insert on alarm_history referencing new table as new_rows for each statement execute function webhook_enqueue_alarms();

create or replace function webhook_enqueue_identities() returns trigger language plpgsql as $$
begin
  insert into webhook_outbox (client_id, hook_id, event_type, body)
  select h.client_id, h.id, 'identity.changed', jsonb_build_object('type', 'identity.changed', 'clientId', x.client_id, 'occurredAt', x.at, 'data', jsonb_build_object(
      'identityId', x.entity_id, 'action', x.action, 'actor', x.actor, 'before', x.before, 'after', x.after))
    from new_rows x
    join web_hooks h on h.client_id = x.client_id and h.active and h.identity_changed
   where x.entity = 'identity';
  return null;
end $$;
drop trigger if exists webhook_identities on audit_log;
create trigger webhook_identities after insert on audit_log referencing new table as new_rows for each statement execute function webhook_enqueue_identities();
