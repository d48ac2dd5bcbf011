-- Alarm notifications (issue 12): every alarm raised with a priority up to a notification's limit goes to its web
-- hook as an `alarm.notification` delivery, written in the transaction that raises the alarm (the outbox of
-- migration 050; the web hook worker delivers it).
create table if not exists alarm_notifications (
  id serial primary key, client_id int not null references clients(id), name text not null,
  max_priority int not null default 1, web_hook_id int not null references web_hooks(id), enabled boolean not null default true, note text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create unique index if not exists alarm_notifications_client_name on alarm_notifications(client_id, name);
create index if not exists alarm_notifications_client on alarm_notifications(client_id) where enabled;

create or replace function alarm_notifications_enqueue() returns trigger language plpgsql as $$
begin
  insert into webhook_outbox (client_id, hook_id, event_type, body)
  select h.client_id, h.id, 'alarm.notification', jsonb_build_object('type', 'alarm.notification', 'clientId', x.client_id, 'occurredAt', x.at,
      'notification', jsonb_build_object('id', n.id, 'name', n.name, 'maxPriority', n.max_priority),
      'data', jsonb_build_object('eventId', x.alarm_id, 'eventCode', a.event_code, 'pointId', a.event_point_id, 'priority', a.priority,
        'instructions', a.instructions, 'message', e.message))
    from new_rows x
    join alarms a on a.event_id = x.alarm_id
    join events e on e.id = x.alarm_id
    join alarm_notifications n on n.client_id = x.client_id and n.enabled and a.priority <= n.max_priority
    join web_hooks h on h.id = n.web_hook_id and h.client_id = n.client_id and h.active
   where x.action = 'raised';
  return null;
end $$;
drop trigger if exists alarm_notifications_enqueue on alarm_history;
create trigger alarm_notifications_enqueue after insert on alarm_history referencing new table as new_rows for each statement execute function alarm_notifications_enqueue();
