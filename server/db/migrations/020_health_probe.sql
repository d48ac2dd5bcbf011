-- /api/health proves the database takes writes by upserting this one row (issue 13: a read-only or full disk
-- answered 200 while every write failed).
create table if not exists health_probe (id int primary key, at timestamptz not null default now());
