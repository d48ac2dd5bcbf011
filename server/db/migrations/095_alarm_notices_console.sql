-- Alarm notifications to the console (issue 12): a notification tells an operator group's consoles, a web hook, or
-- both; the web hook is no longer required (the database's queueing trigger of migration 087 joins the web hook, so a
-- notification without one queues nothing there).
alter table alarm_notifications alter column web_hook_id drop not null;
alter table alarm_notifications add column if not exists operator_group_id int references operator_groups(id);
alter table alarm_notifications drop constraint if exists alarm_notifications_told;
alter table alarm_notifications add constraint alarm_notifications_told check (web_hook_id is not null or operator_group_id is not null);
create index if not exists alarm_notifications_group on alarm_notifications(operator_group_id) where operator_group_id is not null;
