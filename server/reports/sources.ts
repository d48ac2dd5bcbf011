// What a scheduled report holds (server/reports/index.ts): each kind's columns and rows for the period, as the
// job's owner may see it (their divisions for the family's view code), read a batch at a time.
import {
  ACTIVITY_FILE_COLUMNS,
  DAILY_FILE_COLUMNS,
  DAILY_FILE_TIMES,
  PRIV,
  SUMMARY_FILE_COLUMNS,
  activityCells,
  dailyFileCells,
  familyOf,
  summaryFileCells,
} from '../../contract';
import { auditEntryOf, type AuditRow } from '../db/queries/audit';
import { reportJobsResource } from '../../contract/resources/reportJobs';
import { privilegeEntries } from '../auth/access';
import { clientDivisionIds, eventDivisions } from '../auth/eventScope';
import type { Db } from '../db/db';
import { attendanceClock, attendanceDays, summarise } from '../db/queries/attendance';
import { HttpError, divisionsFor, fill } from '../http/kit';
import { iso } from '../db/values';
import type { Column } from '../http/tabular';
import { fullDigest } from '../handover/digest';
import { HANDOVER_COLUMNS, handoverLines } from '../handover/lines';
import { shiftsEndingIn } from '../handover/shifts';
import { REPORT_PAGE as BATCH, reportActivityPage, reportEventsPage, reportIdentitiesPage, reportPeriodInstants } from '../db/queries/reportJobs';
import type { Job } from './clock';

export type Cell = unknown;
/** A report's columns (`time`: instants, shown in the client's zone with the zone in the header) and its rows. */
export interface Source {
  columns: Column[];
  rows: AsyncIterable<Cell[]>;
}
const cols = (names: string[], times: string[] = []): Column[] => names.map((title) => ({ title, time: times.includes(title) }));

/** Rows of a keyset-paged query, BATCH at a time (never the whole report in memory): `page(after)` answers the next batch. */
async function* paged<R>(page: (after: R | null) => Promise<R[]>, cells: (r: R) => Cell[]): AsyncIterable<Cell[]> {
  let after: R | null = null;
  for (;;) {
    const batch = await page(after);
    for (const r of batch) yield cells(r);
    if (batch.length < BATCH) return;
    after = batch[batch.length - 1];
  }
}

/** What a report is made of, for its owner's view of the period (their divisions for the family's codes). */
export async function sourceOf(db: Db, job: Job, period: { from: string; to: string; zone: string }): Promise<Source> {
  const owner = job.created_by === null ? [] : await privilegeEntries(db, job.created_by, job.client_id);
  const holds = (code: string) => owner.some((e) => e.privilegeIds.includes(code));
  const view = familyOf(reportJobsResource, job.report)!.view; // the declaration's family of this report
  if (!holds(view))
    throw new HttpError(
      409,
      fill('reportJob.ownerLacksPrivilege', 'Its owner no longer holds privilege {code} in this client: nothing was made', { code: view }),
    );
  type R = Record<string, unknown>;
  switch (job.report) {
    case 'events': {
      const divisions = await eventDivisions({ clientId: job.client_id, entries: owner, divisionIds: (c) => clientDivisionIds(db, c) }, [
        PRIV.events.view,
        PRIV.eventReport,
      ]);
      return {
        columns: cols(['id', 'time', 'eventCode', 'eventSourceName', 'eventPointName', 'message', 'alert', 'priority'], ['time']),
        rows: paged<R>(
          (after) => reportEventsPage(db, job.client_id, period, divisions, (after?.id as number | undefined) ?? 0),
          (r) => [Number(r.id), iso(r.at), r.event_code, r.event_source_name, r.event_point_name, r.message, r.alert, r.priority],
        ),
      };
    }
    case 'activity':
      // the same headers and cells as the screen's export (contract/activity.ts), in plain words, with the ids and the
      // values before and after
      return {
        columns: cols([...ACTIVITY_FILE_COLUMNS], ['When']),
        rows: paged<R>(
          (after) => reportActivityPage(db, job.client_id, period, (after?.id as number | undefined) ?? 0),
          (r) => {
            const row = r as unknown as AuditRow & { actor_name: string | null };
            const entry = auditEntryOf(row, new Map(row.actor_name ? [[row.actor, row.actor_name]] : []));
            return [iso(row.at), ...activityCells(entry)];
          },
        ),
      };
    case 'identities': {
      const divisions = divisionsFor({ entries: owner }, [PRIV.identityReport, PRIV.identities.view]);
      return {
        columns: cols(['employeeNo', 'lastName', 'firstName', 'division', 'status', 'validFrom', 'validTo']),
        rows: paged<R>(
          (after) => reportIdentitiesPage(db, job.client_id, divisions, after && { id: after.id, k1: after.k1, k2: after.k2 }),
          (r) => [r.employee_no, r.last_name, r.first_name, r.division, r.status, r.valid_from, r.valid_to],
        ),
      };
    }
    case 'shift-handover': {
      // issue 31: each shift that ended in the period, as its owner may see it (the handover's code and divisions)
      if (!holds(PRIV.handover.view))
        throw new HttpError(
          409,
          fill('reportJob.ownerLacksPrivilege', 'Its owner no longer holds privilege {code} in this client: nothing was made', { code: PRIV.handover.view }),
        );
      const divisions = await eventDivisions({ clientId: job.client_id, entries: owner, divisionIds: (c) => clientDivisionIds(db, c) }, [PRIV.handover.view]);
      const b = await reportPeriodInstants(db, job.client_id, period);
      const shifts = await shiftsEndingIn(db, job.client_id, new Date(b.s), new Date(b.e));
      async function* lines() {
        for (const shift of shifts) yield* handoverLines(await fullDigest(db, job.client_id, shift, divisions));
      }
      return { columns: cols([...HANDOVER_COLUMNS], ['shiftStart', 'shiftEnd', 'since']), rows: lines() };
    }
    case 'daily-attendance':
    case 'attendance-summary': {
      // the attendance engine works out a period's days as a whole (bounded by the team and the period)
      const code = job.report === 'daily-attendance' ? PRIV.dailyAttendance : PRIV.attendanceSummaries;
      const divisions = divisionsFor({ entries: owner }, [code, PRIV.attendanceReportJobs.view]);
      const clock = await attendanceClock(db, job.client_id);
      const days = await attendanceDays(db, job.client_id, { from: period.from, to: period.to }, divisions, clock);
      async function* of(rows: Cell[][]) {
        yield* rows;
      }
      // the same headers and cells as the screens' exports (contract/attendanceFiles.ts); the daily one with its day first
      if (job.report === 'daily-attendance') {
        return {
          columns: cols(['Day', ...DAILY_FILE_COLUMNS], [...DAILY_FILE_TIMES]),
          rows: of([...days].flatMap(([day, list]) => list.map((r) => [day, ...dailyFileCells(r)] as Cell[]))),
        };
      }
      return { columns: cols([...SUMMARY_FILE_COLUMNS]), rows: of(summarise(days).map((r) => summaryFileCells(r) as Cell[])) };
    }
  }
}
