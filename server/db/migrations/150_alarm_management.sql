-- Issue 50, alarm management as ISA-18.2 / IEC 62682 says (server/alarms/):
--  - escalation: an alarm not acknowledged within its priority's target (alarm_settings, migration 129) goes to the
--    first escalation group, after another target to the second, then the third. The step an alarm reached is kept
--    on it (a sweep on any server finds the next one due from raised_at, the step and the target: nothing in memory,
--    so a restart loses none; an alarm back from a shelving counts from its return); each step is an 'escalated' line of its history, told to web hooks that subscribe to
--    alarm.escalated;
--  - forwarding an alarm to an operator or an operator group with a note ('forwarded' in its history);
--  - shelving an alarm source (its event point) for a time with a reason: its alarms are still stored but kept off
--    the consoles (shelved) until the shelving ends, by itself at `until` or by an operator; every shelving is kept.
-- Shelving [0.2.1.2] and forwarding [0.2.1.3] go to the roles that acknowledge and process alarms [0.2.1.1].
alter table alarm_settings add column if not exists escalate_group1_id int references operator_groups(id) on delete set null;
alter table alarm_settings add column if not exists escalate_group2_id int references operator_groups(id) on delete set null;
alter table alarm_settings add column if not exists escalate_group3_id int references operator_groups(id) on delete set null;

create table if not exists alarm_shelvings (
  id serial primary key, client_id int not null references clients(id),
  event_point_id text not null, point_name text,
  reason text not null check (char_length(reason) between 1 and 500),
  minutes int not null check (minutes between 1 and 10080),
  shelved_by text not null, shelved_at timestamptz not null default now(), until timestamptz not null,
  ended_at timestamptz, ended_by text, end_reason text check (end_reason is null or end_reason in ('expired', 'ended')),
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
-- one running shelving per source; the sweep finds the ones whose time is up
create unique index if not exists alarm_shelvings_running on alarm_shelvings(client_id, event_point_id) where ended_at is null;
create index if not exists alarm_shelvings_due on alarm_shelvings(until) where ended_at is null;
create index if not exists alarm_shelvings_client on alarm_shelvings(client_id, shelved_at desc);

alter table alarms add column if not exists escalation_step int not null default 0;
alter table alarms add column if not exists escalated_to_group_id int references operator_groups(id) on delete set null;
alter table alarms add column if not exists forwarded_to_user_id int references users(id) on delete set null;
alter table alarms add column if not exists forwarded_to_group_id int references operator_groups(id) on delete set null;
alter table alarms add column if not exists shelving_id int references alarm_shelvings(id);
alter table alarms add column if not exists shelved boolean not null default false;
-- back from a shelving, an alarm's escalation counts from then, not from its raising (it was off every screen)
alter table alarms add column if not exists escalate_from timestamptz;
-- the sweep's look: unacknowledged, unshelved alarms
create index if not exists alarms_unacknowledged on alarms(raised_at) where state = 'raised' and not shelved;

alter table alarm_history drop constraint if exists alarm_history_action_check;
alter table alarm_history add constraint alarm_history_action_check
  check (action in ('raised', 'viewed', 'acknowledged', 'processed', 'escalated', 'forwarded', 'shelved', 'unshelved'));
alter table alarm_history add column if not exists step int;
alter table alarm_history add column if not exists to_group_id int;
alter table alarm_history add column if not exists to_user_id int;

alter table web_hooks add column if not exists alarm_escalated boolean not null default false;
create or replace function webhook_enqueue_alarms() returns trigger language plpgsql as $$
begin
  insert into webhook_outbox (client_id, hook_id, event_type, body)
  select h.client_id, h.id, 'alarm.' || x.action, jsonb_build_object('type', 'alarm.' || x.action, 'clientId', x.client_id, 'occurredAt', x.at, 'data', jsonb_build_object(
      'eventId', x.alarm_id, 'eventCode', a.event_code, 'pointId', a.event_point_id, 'priority', a.priority, 'state', x.action,
      'actor', x.actor, 'note', x.note, 'message', e.message)
      || case when x.action = 'escalated' then jsonb_build_object('step', x.step, 'operatorGroupId', x.to_group_id,
           'operatorGroupName', (select g.name from operator_groups g where g.id = x.to_group_id)) else '{}'::jsonb end)
    from new_rows x
    join alarms a on a.event_id = x.alarm_id
    join events e on e.id = x.alarm_id
    join web_hooks h on h.client_id = x.client_id and h.active
   where (x.action = 'raised' and h.alarm_raised) or (x.action = 'acknowledged' and h.alarm_acknowledged) or (x.action = 'processed' and h.alarm_processed)
      or (x.action = 'escalated' and h.alarm_escalated);
  return null;
end $$;

-- (each client's role by its id, over the same divisions; and the templates new clients copy)
insert into role_privileges (role_id, role_code, privilege, division_id)
  select rp.role_id, rp.role_code, p.code, rp.division_id from role_privileges rp cross join (values ('0.2.1.2'), ('0.2.1.3')) as p(code)
   where rp.privilege = '0.2.1.1'
on conflict do nothing;
insert into role_template_privileges (code, privilege)
  select t.code, p.code from role_template_privileges t cross join (values ('0.2.1.2'), ('0.2.1.3')) as p(code) where t.privilege = '0.2.1.1'
on conflict do nothing;
