-- The timesheet keeps the payroll rules' figures (contract/attendanceDaily.ts attendanceFigures): the work schedule's
-- unpaid break as built (an amendment works the day out with it, as with the grace) and the day's overtime (the
-- worked minutes of a day off). Days built before keep their figures until rebuilt; their break is their team's.
alter table timesheet_entries add column if not exists break_minutes int not null default 0;
alter table timesheet_entries add column if not exists overtime_minutes int not null default 0;
update timesheet_entries e set break_minutes = w.break_minutes
  from teams t join work_schedules w on w.id = t.work_schedule_id
  where t.id = e.team_id and e.break_minutes = 0;
