// Daily Attendance [3.2.0] (contract/attendanceDaily.ts): one day of the client's teams, in the client's zone — each
// member's shift from their team's work schedule, the first and last granted swipe of the day, leave, and the status
// the contract's rules make of them, worked time less the unpaid break and a day off's overtime by its payroll rules
// (contract/attendanceDaily.ts attendanceFigures, the one function the summaries and Build Timesheet count by too).
// Members of divisions the user was not granted 3.2.0 on are left out (§6). The attendance properties [3.5.0] choose
// the clocking doors and round worked time down.
import type { FastifyInstance } from 'fastify';
import {
  ATTENDANCE_SUMMARY_API,
  AttendanceSummaryQuery,
  DAILY_ATTENDANCE_API,
  DailyAttendanceQuery,
  DAILY_FILE_COLUMNS,
  DAILY_FILE_TIMES,
  PRIV,
  SUMMARY_FILE_COLUMNS,
  dailyFileCells,
  periodProblem,
  summaryFileCells,
  API,
  TimesheetBuild,
  timesheetResource,
  type AttendanceSummary,
  type DailyAttendance,
  type TimesheetBuildResult,
} from '../../contract';
import { attendanceClock, attendanceDay, attendanceDays, buildTimesheet, countedPeriod, summarise } from '../db/queries/attendance';
import type { Db } from '../db/db';
import { HttpError, body, clientOf, divisionsFor, principal, query, INVALID_REQUEST } from './kit';
import { audit } from '../audit/trail';
import { sendTable, type Column } from './tabular';

// the files of the attendance screens (issue 29): the one writer's byte-order mark, unique headers, In and Out as ISO
// 8601 instants with the client's offset and the zone named in their headers; worked time in minutes, as counted
const DAILY_COLUMNS: Column[] = DAILY_FILE_COLUMNS.map((title) => ({ title, time: (DAILY_FILE_TIMES as readonly string[]).includes(title) }));
const SUMMARY_COLUMNS: Column[] = SUMMARY_FILE_COLUMNS.map((title) => ({ title }));
async function* each<T>(rows: T[], cells: (r: T) => unknown[]) {
  for (const r of rows) yield cells(r);
}

/** A period of at most ATTENDANCE_SUMMARY_MAX_DAYS days, from `from` to `to` (the contract's periodProblem), or 400
 *  with the violation naming the field. */
function checkPeriod(q: { from: string; to: string }) {
  const problem = periodProblem(q.from, q.to);
  if (problem) {
    // the violation whole, its key and values with it (issue 48)
    const { field, message, code, values } = problem;
    throw new HttpError(400, INVALID_REQUEST, [{ field, message, ...(code ? { code, values } : {}) }]);
  }
}

export function attendanceRoutes(app: FastifyInstance, { db, publish }: { db: Db; publish?: (clientId: number, destination: string, body: unknown) => void }) {
  app.get(DAILY_ATTENDANCE_API, { config: { privileges: [PRIV.dailyAttendance] } }, async (req, reply) => {
    const { format, ...q } = query(req.query, DailyAttendanceQuery, ['teamId']);
    const day: DailyAttendance = await attendanceDay(db, clientOf(req), q, divisionsFor(principal(req), [PRIV.dailyAttendance]));
    if (!format || format === 'json') return day;
    return sendTable(
      reply,
      format,
      `daily-attendance-${day.date}`,
      {
        columns: DAILY_COLUMNS,
        zone: day.zone,
        rows: each(day.rows, dailyFileCells),
      },
      { sheet: 'Daily attendance' },
    );
  });

  // Attendance Summaries [3.6.0]: each member's days of a period, counted day by day as daily attendance counts them
  // (days after today are not counted yet); the members are those of the last day's teams.
  app.get(ATTENDANCE_SUMMARY_API, { config: { privileges: [PRIV.attendanceSummaries] } }, async (req, reply) => {
    const clientId = clientOf(req);
    const { format, ...q } = query(req.query, AttendanceSummaryQuery, ['teamId']);
    checkPeriod(q);
    const divisions = divisionsFor(principal(req), [PRIV.attendanceSummaries]);
    const clock = await attendanceClock(db, clientId);
    const period = countedPeriod(q, clock.today); // a day still ahead has nothing to count
    const days = await attendanceDays(db, clientId, { ...period, ...(q.teamId ? { teamId: q.teamId } : {}) }, divisions, clock); // no query for no days
    const summary: AttendanceSummary = { from: q.from, to: q.to, zone: clock.zone, days: period.days, rows: summarise(days) };
    if (!format || format === 'json') return summary;
    return sendTable(
      reply,
      format,
      `attendance-${q.from}-${q.to}`,
      {
        columns: SUMMARY_COLUMNS,
        zone: summary.zone,
        rows: each(summary.rows, summaryFileCells),
      },
      { sheet: 'Attendance summaries' },
    );
  });

  // Build Timesheet [3.3]: the period's days written into the timesheet (amended days kept), one audit row
  app.post(API.timesheetBuild, { config: { privileges: [PRIV.buildTimesheet], touches: 'client' } }, async (req): Promise<TimesheetBuildResult> => {
    const clientId = clientOf(req);
    const q = body(req.body, TimesheetBuild);
    checkPeriod(q);
    const p = principal(req);
    const divisions = divisionsFor(p, [PRIV.buildTimesheet]);
    const result = await db.transaction(async (tx) => {
      const made = await buildTimesheet(tx, clientId, p.userId, q, divisions);
      await audit(tx, req, {
        clientId,
        action: 'build',
        entity: timesheetResource.label.one.toLowerCase(),
        entityId: null,
        before: null,
        after: { ...q, ...made },
      });
      return made;
    });
    publish?.(clientId, `/changes/${timesheetResource.name}`, { resource: timesheetResource.name, id: 0, action: 'update' });
    return result;
  });
}
