-- Scheduled report jobs (contract/resources/reportJobs.ts): a report made on a schedule for the period just past, its
-- owner (created_by: the report shows what they may see), when it runs next and how the last run went; each run's CSV
-- kept in report_job_runs (the newest keep_runs of a job).
create table if not exists report_jobs (
  id serial primary key, client_id int not null references clients(id),
  name text not null, report text not null, frequency text not null default 'daily' check (frequency in ('daily', 'weekly', 'monthly')),
  hour int not null default 6 check (hour between 0 and 23), weekday text not null default '1', month_day int not null default 1 check (month_day between 1 and 28),
  keep_runs int not null default 10 check (keep_runs between 1 and 50), enabled boolean not null default true,
  created_by int references users(id), next_run_at timestamptz, last_run_at timestamptz, last_status text,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
  unique (client_id, name)
);
create index if not exists report_jobs_due on report_jobs(next_run_at) where enabled;
create table if not exists report_job_runs (
  id serial primary key, job_id int not null references report_jobs(id) on delete cascade, client_id int not null references clients(id),
  ran_at timestamptz not null default now(), period_from date not null, period_to date not null,
  rows int not null default 0, ok boolean not null, status text not null, content text
);
create index if not exists report_job_runs_job on report_job_runs(job_id, id desc);
