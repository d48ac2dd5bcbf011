// When a scheduled report job runs (server/resources/reportJobs.ts): its row as the runner reads it, the next time its
// schedule comes round in its client's zone, and the period a run due at a given time covers.
import type { ReportJobKind } from '../../contract';
import type { ReportJobFormat } from '../../contract/resources/reportJobs';
import type { Db } from '../db/db';
import { iso } from '../db/values';

export interface Job {
  id: number;
  client_id: number;
  name: string;
  report: ReportJobKind;
  frequency: string;
  hour: number;
  weekday: string;
  month_day: number;
  keep_runs: number;
  keep_days: number;
  enabled: boolean;
  created_by: number | null;
  format: ReportJobFormat;
  recipients: string | null;
  web_hook_id: number | null;
  next_run_at: unknown;
}

/** The next time the schedule comes round after now, in the client's zone (SQL; null when the job is off). */
export async function nextRunAt(
  db: Db,
  clientId: number,
  j: { frequency: string; hour: number; weekday: string; monthDay: number; enabled: boolean },
): Promise<string | null> {
  if (!j.enabled) return null;
  const { rows } = await db.query<{ at: unknown }>(
    `
    with z as (select timezone as tz, now() at time zone timezone as n from clients where id = $1),
    c as (select tz, n, case $2::text
        when 'daily' then date_trunc('day', n) + $3::int * interval '1 hour'
        when 'weekly' then date_trunc('day', n) + ((($4::int - extract(dow from n)::int) + 7) % 7) * interval '1 day' + $3::int * interval '1 hour'
        else date_trunc('month', n) + ($5::int - 1) * interval '1 day' + $3::int * interval '1 hour' end as at from z)
    select (case when at > n then at else at + case $2::text when 'daily' then interval '1 day' when 'weekly' then interval '7 days' else interval '1 month' end end) at time zone tz as at from c`,
    [clientId, j.frequency, j.hour, Number(j.weekday), j.monthDay],
  );
  return iso(rows[0]?.at) ?? null;
}

/** The period a run due at `at` covers, as local days 'YYYY-MM-DD' (daily: the day before; weekly: the 7 days before; monthly: the month before). */
export async function periodOf(db: Db, clientId: number, frequency: string, at: string | null = null): Promise<{ from: string; to: string; zone: string }> {
  const { rows } = await db.query<{ from: string; to: string; zone: string }>(
    `
    select timezone as zone,
      (case $2::text when 'daily' then d - 1 when 'weekly' then d - 7 else (date_trunc('month', d) - interval '1 month')::date end)::text as "from",
      (case $2::text when 'monthly' then (date_trunc('month', d) - interval '1 day')::date else d - 1 end)::text as "to"
    from (select timezone, (coalesce($3::timestamptz, now()) at time zone timezone)::date as d from clients where id = $1) x`,
    [clientId, frequency, at],
  );
  return rows[0];
}

export const JOB_COLUMNS =
  'id, client_id, name, report, frequency, hour, weekday, month_day, keep_runs, keep_days, enabled, created_by, format, recipients, web_hook_id, next_run_at';

/** The job `id` as the runner reads it. */
export async function loadJob(db: Db, id: number): Promise<Job> {
  const { rows } = await db.query<Job>(`select ${JOB_COLUMNS} from report_jobs where id = $1`, [id]);
  return rows[0];
}
