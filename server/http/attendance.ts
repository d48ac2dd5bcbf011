// Daily Attendance [3.2.0] (contract/attendanceDaily.ts): one day of the client's teams, in the client's zone — each
// member's shift from their team's work schedule, the first and last granted swipe of the day, leave, and the status
// the contract's rules make of them. Members of divisions the user was not granted 3.2.0 on are left out (§6). The
// attendance properties [3.5.0] choose the clocking doors and round worked time down.
import type { FastifyInstance } from 'fastify';
import {
  ATTENDANCE_SUMMARY_API, ATTENDANCE_SUMMARY_MAX_DAYS, AttendanceSummaryQuery, DAILY_ATTENDANCE_API, DailyAttendanceQuery, PRIV,
  API, TimesheetBuild, timesheetResource, type AttendanceSummary, type AttendanceSummaryRow, type DailyAttendance, type TimesheetBuildResult,
} from '../../contract';
import { attendanceDay, buildTimesheet } from '../db/queries/attendance';
import type { Db } from '../db/db';
import { HttpError, audit, body, clientOf, divisionsFor, principal, query } from './common';

/** A period of at most ATTENDANCE_SUMMARY_MAX_DAYS days, from `from` to `to`, or the violation naming `to`. */
function checkPeriod(q: { from: string; to: string }) {
  const span = (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000;
  if (span < 0) throw new HttpError(400, 'Validation failed', [{ field: 'to', message: 'must not be before the first day' }]);
  if (span >= ATTENDANCE_SUMMARY_MAX_DAYS) throw new HttpError(400, 'Validation failed', [{ field: 'to', message: `must be within ${ATTENDANCE_SUMMARY_MAX_DAYS} days of the first day` }]);
  return span;
}

export function attendanceRoutes(app: FastifyInstance, { db, publish }: { db: Db; publish?: (clientId: number, destination: string, body: unknown) => void }) {
  app.get(DAILY_ATTENDANCE_API, { config: { privileges: [PRIV.dailyAttendance] } }, async (req): Promise<DailyAttendance> =>
    attendanceDay(db, clientOf(req), query(req.query, DailyAttendanceQuery, ['teamId']), divisionsFor(principal(req), [PRIV.dailyAttendance])));

  // Attendance Summaries [3.6.0]: each member's days of a period, counted day by day as daily attendance counts them
  // (days after today are not counted yet); the members are those of the last day's teams.
  app.get(ATTENDANCE_SUMMARY_API, { config: { privileges: [PRIV.attendanceSummaries] } }, async (req): Promise<AttendanceSummary> => {
    const clientId = clientOf(req);
    const q = query(req.query, AttendanceSummaryQuery, ['teamId']);
    const span = checkPeriod(q);
    const divisions = divisionsFor(principal(req), [PRIV.attendanceSummaries]);
    const { zone, today } = (await db.query<{ zone: string; today: string }>('select timezone zone, (now() at time zone timezone)::date::text today from clients where id = $1', [clientId])).rows[0];
    const totals = new Map<string, AttendanceSummaryRow>();
    let counted = 0;
    for (let i = 0; i <= span; i++) {
      const date = new Date(Date.parse(`${q.from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10);
      if (date > today) break; // a day still ahead has nothing to count
      const day = await attendanceDay(db, clientId, { date, ...(q.teamId ? { teamId: q.teamId } : {}) }, divisions);
      counted++;
      for (const r of day.rows) {
        const key = `${r.teamId}:${r.identityId}`;
        const t = totals.get(key) ?? { identityId: r.identityId, name: r.name, employeeNo: r.employeeNo, teamId: r.teamId, team: r.team,
          scheduledDays: 0, presentDays: 0, lateDays: 0, absentDays: 0, leaveDays: 0, workedMinutes: 0, lateMinutes: 0 };
        if (r.shiftStart && r.status !== 'on-leave') t.scheduledDays++;
        if (r.status === 'present' || r.status === 'late') t.presentDays++;
        if (r.status === 'late') { t.lateDays++; t.lateMinutes += r.lateMinutes ?? 0; }
        if (r.status === 'absent') t.absentDays++;
        if (r.status === 'on-leave') t.leaveDays++;
        t.workedMinutes += r.workedMinutes ?? 0;
        totals.set(key, t);
      }
    }
    return { from: q.from, to: q.to, zone, days: counted, rows: [...totals.values()] };
  });

  // Build Timesheet [3.3]: the period's days written into the timesheet (amended days kept), one audit row
  app.post(API.timesheetBuild, { config: { privileges: [PRIV.buildTimesheet] } }, async (req): Promise<TimesheetBuildResult> => {
    const clientId = clientOf(req);
    const q = body(req.body, TimesheetBuild);
    checkPeriod(q);
    const p = principal(req);
    const divisions = divisionsFor(p, [PRIV.buildTimesheet]);
    const result = await db.transaction(async (tx) => {
      const made = await buildTimesheet(tx, clientId, p.userId, q, divisions);
      await audit(tx, req, { clientId, action: 'build', entity: timesheetResource.label.one.toLowerCase(), entityId: null, before: null, after: { ...q, ...made } });
      return made;
    });
    publish?.(clientId, `/changes/${timesheetResource.name}`, { resource: timesheetResource.name, id: 0, action: 'update' });
    return result;
  });
}
