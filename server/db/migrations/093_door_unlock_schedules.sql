-- Unlock schedules and first-person-in (issue 12): a door unlocked while a schedule is open (optionally only after the
-- first valid card of the window), locked again when it closes. `schedule_unlocked_at`: when the schedule clock (or
-- the first person in) unlocked it for the window now open; null while the schedule does not hold it unlocked.
alter table doors add column if not exists unlock_schedule_id int references schedules(id);
alter table doors add column if not exists first_person_in boolean not null default false;
alter table doors add column if not exists schedule_unlocked_at timestamptz;
create index if not exists doors_unlock_schedule on doors(unlock_schedule_id) where unlock_schedule_id is not null;
