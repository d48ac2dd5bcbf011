-- Scheduled report jobs, issue 26 (contract/resources/reportJobs.ts): a job's format (CSV or XLSX), where its reports
-- go (e-mail recipients through SMTP_URL, a web hook of the client), how long a report's file is kept; each run's
-- history (when it was due, rows, size, cut at the row cap, to whom it was delivered or why it failed, its retries).
alter table report_jobs add column if not exists format text not null default 'csv' check (format in ('csv', 'xlsx'));
alter table report_jobs add column if not exists recipients text;
alter table report_jobs add column if not exists web_hook_id int references web_hooks(id) on delete set null;
alter table report_jobs add column if not exists keep_days int not null default 30 check (keep_days between 1 and 366);

-- the file as bytes (an XLSX is binary); the old CSV text column stays readable for runs made before
alter table report_job_runs add column if not exists format text not null default 'csv';
alter table report_job_runs add column if not exists file bytea;
alter table report_job_runs add column if not exists bytes int not null default 0;
alter table report_job_runs add column if not exists cut boolean not null default false;
-- the schedule's time this run is for (null: Run now); one run per due time, however many servers share the database
alter table report_job_runs add column if not exists due_at timestamptz;
create unique index if not exists report_job_runs_due on report_job_runs(job_id, due_at);
alter table report_job_runs add column if not exists mailed_to text;
alter table report_job_runs add column if not exists mail_error text;
alter table report_job_runs add column if not exists webhook_outbox_id bigint references webhook_outbox(id) on delete set null;
alter table report_job_runs add column if not exists attempts int not null default 1;
alter table report_job_runs add column if not exists expired boolean not null default false;
update report_job_runs set bytes = coalesce(octet_length(content), 0) where bytes = 0 and content is not null;
