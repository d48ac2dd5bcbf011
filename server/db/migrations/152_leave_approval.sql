-- Leave that is approved (issue 50; contract/resources/attendance.ts leaveResource): a leave record is requested, then
-- approved or rejected with a note by a manager of the person's team (team_managers: console operators) holding 3.8.2,
-- never by whoever requested it or the person themselves. Only approved leave counts in daily attendance, timesheets
-- and summaries (server/db/queries/attendance.ts). Leave kept before this migration was entered by HR: approved.
alter table leave_records add column if not exists status text not null default 'approved';
alter table leave_records alter column status set default 'requested';
alter table leave_records drop constraint if exists leave_records_status_check;
alter table leave_records add constraint leave_records_status_check check (status in ('requested', 'approved', 'rejected'));
alter table leave_records add column if not exists requested_by int references users(id);
alter table leave_records add column if not exists decided_by int references users(id);
alter table leave_records add column if not exists decided_at timestamptz;
alter table leave_records add column if not exists decision_note text;
create index if not exists leave_records_client_status on leave_records(client_id, status, from_date);

create table if not exists team_managers (
  team_id int not null references teams(id) on delete cascade,
  user_id int not null references users(id) on delete cascade,
  primary key (team_id, user_id));
create index if not exists team_managers_user on team_managers(user_id);

-- a web hook may hear of leave requested and decided (contract/resources/webHooks.ts WEB_HOOK_EVENTS)
alter table web_hooks add column if not exists leave_requested boolean not null default false;
alter table web_hooks add column if not exists leave_decided boolean not null default false;

-- who held "Add leave" may approve leave (the seed's roles)
-- (each client's role by its id, over the same divisions; and the templates new clients copy)
insert into role_privileges (role_id, role_code, privilege, division_id)
  select role_id, role_code, '3.8.2', division_id from role_privileges where privilege = '3.8.1' on conflict do nothing;
insert into role_template_privileges (code, privilege) select code, '3.8.2' from role_template_privileges where privilege = '3.8.1' on conflict do nothing;
