-- Issue 29: a web hook subscribed to access.denied is told of every refused swipe, not only 5001–5003: the access
-- engine's denials are 5001–5019 (5004 a lockdown, 5013 a threat level holding the door locked, …; 5020 is a
-- let-through anti-passback violation, not a denial). The payload is the event row as stored, its message included.
create or replace function webhook_enqueue_events() returns trigger language plpgsql as $$
begin
  insert into webhook_outbox (client_id, hook_id, event_type, body)
  select h.client_id, h.id, x.type, jsonb_build_object('type', x.type, 'clientId', x.client_id, 'occurredAt', x.at, 'data', jsonb_build_object(
      'eventId', x.id, 'eventCode', x.event_code, 'sourceId', x.event_source_id, 'sourceName', x.event_source_name,
      'pointId', x.event_point_id, 'pointName', x.event_point_name, 'message', x.message))
    from (select n.*, case when n.event_code = 5000 then 'access.granted' when n.event_code between 5001 and 5019 then 'access.denied'
            when n.event_code between 6000 and 6005 then 'door.state' end as type from new_rows n) x
    join web_hooks h on h.client_id = x.client_id and h.active
   where (x.type = 'access.granted' and h.access_granted) or (x.type = 'access.denied' and h.access_denied) or (x.type = 'door.state' and h.door_state);
  return null;
end $$;
