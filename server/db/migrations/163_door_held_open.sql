-- Gatehouse Edge door I/O (issue 47): how long a door may stand open after a grant or a request to exit before its
-- edge controller reports it held open (Door held open, 6002). The strike's unlock time is its output's pulse.
alter table doors add column if not exists held_open_seconds int not null default 30;
alter table doors drop constraint if exists doors_held_open_seconds;
alter table doors add constraint doors_held_open_seconds check (held_open_seconds between 1 and 3600);
