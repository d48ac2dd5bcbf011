// When a scheduled report job runs (server/reports/index.ts): its row as the runner reads it, the next time its
// schedule comes round in its client's zone, and the period a run due at a given time covers.
import type { Db } from '../db/db';
import { loadReportJob, nextScheduledRun, reportPeriod, type ReportJob } from '../db/queries/reportJobs';
import { iso } from '../db/values';

export type Job = ReportJob;

/** The next time the schedule comes round after now, in the client's zone (SQL; null when the job is off). */
export async function nextRunAt(
  db: Db,
  clientId: number,
  j: { frequency: string; hour: number; weekday: string; monthDay: number; enabled: boolean },
): Promise<string | null> {
  if (!j.enabled) return null;
  return iso(await nextScheduledRun(db, clientId, { frequency: j.frequency, hour: j.hour, weekday: Number(j.weekday), monthDay: j.monthDay })) ?? null;
}

/** The period a run due at `at` covers, as local days 'YYYY-MM-DD' (daily: the day before; weekly: the 7 days before; monthly: the month before). */
export async function periodOf(db: Db, clientId: number, frequency: string, at: string | null = null): Promise<{ from: string; to: string; zone: string }> {
  return reportPeriod(db, clientId, frequency, at);
}

/** The job `id` as the runner reads it. */
export const loadJob = loadReportJob;
