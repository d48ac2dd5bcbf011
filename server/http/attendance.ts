// Daily Attendance [3.2.0] (contract/attendanceDaily.ts): one day of the client's teams, in the client's zone — each
// member's shift from their team's work schedule, the first and last granted swipe of the day, leave, and the status
// the contract's rules make of them. Members of divisions the user was not granted 3.2.0 on are left out (§6). The
// attendance properties [3.5.0] choose the clocking doors and round worked time down.
import type { FastifyInstance } from 'fastify';
import {
  ATTENDANCE_SUMMARY_API, ATTENDANCE_SUMMARY_MAX_DAYS, AttendanceSummaryQuery, DAILY_ATTENDANCE_API, DailyAttendanceQuery, PRIV, attendanceStatus,
  type AttendanceSummary, type AttendanceSummaryRow, type DailyAttendance, type DailyAttendanceQuery as DayQuery, type DailyAttendanceRow,
} from '../../contract';
import type { Db } from '../db/db';
import { HttpError, clientOf, divisionsFor, iso, principal, query } from './common';

interface Member {
  identity_id: number; name: string; employee_no: string | null; team_id: number; team: string; grace_minutes: number;
  shift_start: string | null; shift_end: string | null; first_in: unknown; last_out: unknown;
  first_in_minutes: number | null; leave: string | null;
}

/** One day of the client's teams (the members of `divisions` only), by the contract's rules and the properties. */
export async function attendanceDay(db: Db, clientId: number, q: DayQuery, divisions: number[]): Promise<DailyAttendance> {
    const day = (await db.query<{ zone: string; today: string; now_minutes: number; dow: string }>(
      `select timezone zone, (now() at time zone timezone)::date::text today,
         (extract(hour from now() at time zone timezone) * 60 + extract(minute from now() at time zone timezone))::int now_minutes,
         extract(dow from $2::date)::int::text dow
       from clients where id = $1`, [clientId, q.date])).rows[0];
    // the attendance properties [3.5.0]: which doors' badge-ins count (none: every door's), and the rounding
    const props = (await db.query<{ doors: number[] | null; round_minutes: number }>(`select p.round_minutes,
        (select array_agg(d.door_id) from attendance_clock_doors d where d.properties_id = p.id) doors
      from attendance_properties p where p.client_id = $1`, [clientId])).rows[0];
    const clockDoors = props?.doors?.length ? props.doors.map(String) : null;
    const round = props ? Number(props.round_minutes) : 1;
    // the day runs from midnight to midnight in the client's zone; swipes are read through their partial index
    const { rows } = await db.query<Member>(`
      with bounds as (select ($2::date::timestamp at time zone $3) d0, (($2::date + 1)::timestamp at time zone $3) d1)
      select i.id identity_id, i.last_name || ', ' || i.first_name name, i.employee_no, t.id team_id, t.name team, w.grace_minutes,
        s.start_time shift_start, s.end_time shift_end, sw.first_in, sw.last_out,
        (extract(hour from sw.first_in at time zone $3) * 60 + extract(minute from sw.first_in at time zone $3))::int first_in_minutes,
        (select c.name from leave_records l join leave_categories c on c.id = l.category_id
          where l.identity_id = i.id and l.client_id = $1 and $2::date between l.from_date and l.to_date order by l.id limit 1) leave
      from teams t
      join team_members m on m.team_id = t.id
      join identities i on i.id = m.identity_id and i.client_id = $1
      join work_schedules w on w.id = t.work_schedule_id
      left join lateral (select start_time, end_time from work_schedule_shifts s where s.work_schedule_id = w.id and s.day = $4 order by start_time limit 1) s on true
      left join lateral (select min(e.at) first_in, max(e.at) last_out from events e, bounds b
        where e.client_id = $1 and e.identity_id = i.id and e.event_code = 5000 and e.at >= b.d0 and e.at < b.d1
          and ($7::text[] is null or e.swipe->>'doorId' = any($7::text[]))) sw on true
      where t.client_id = $1 and t.active and ($5::int is null or t.id = $5) and i.division_id = any($6::int[])
      order by t.name, i.last_name, i.first_name, i.id`, [clientId, q.date, day.zone, day.dow, q.teamId ?? null, divisions, clockDoors]);
    const isToday = q.date === day.today;
    const isFuture = q.date > day.today;
    return {
      date: q.date,
      zone: day.zone,
      rows: rows.map((m): DailyAttendanceRow => {
        const firstIn = iso(m.first_in);
        const lastOut = iso(m.last_out);
        const spent = firstIn && lastOut && lastOut !== firstIn ? Math.floor((Date.parse(lastOut) - Date.parse(firstIn)) / 60_000) : null;
        const worked = spent === null ? null : spent - (spent % round);
        const { status, lateMinutes } = attendanceStatus({
          onLeave: m.leave !== null, shiftStart: m.shift_start, graceMinutes: Number(m.grace_minutes), firstInMinutes: m.first_in_minutes === null ? null : Number(m.first_in_minutes),
          isToday, isFuture, nowMinutes: Number(day.now_minutes),
        });
        return {
          identityId: Number(m.identity_id), name: m.name, employeeNo: m.employee_no, teamId: Number(m.team_id), team: m.team,
          shiftStart: m.shift_start, shiftEnd: m.shift_end, firstIn, lastOut: worked === null ? null : lastOut,
          workedMinutes: worked, lateMinutes, status, leave: m.leave,
        };
      }),
    };
}

export function attendanceRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get(DAILY_ATTENDANCE_API, { config: { privileges: [PRIV.dailyAttendance] } }, async (req): Promise<DailyAttendance> =>
    attendanceDay(db, clientOf(req), query(req.query, DailyAttendanceQuery, ['teamId']), divisionsFor(principal(req), [PRIV.dailyAttendance])));

  // Attendance Summaries [3.6.0]: each member's days of a period, counted day by day as daily attendance counts them
  // (days after today are not counted yet); the members are those of the last day's teams.
  app.get(ATTENDANCE_SUMMARY_API, { config: { privileges: [PRIV.attendanceSummaries] } }, async (req): Promise<AttendanceSummary> => {
    const clientId = clientOf(req);
    const q = query(req.query, AttendanceSummaryQuery, ['teamId']);
    const span = (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000;
    if (span < 0) throw new HttpError(400, 'Validation failed', [{ field: 'to', message: 'must not be before the first day' }]);
    if (span >= ATTENDANCE_SUMMARY_MAX_DAYS) throw new HttpError(400, 'Validation failed', [{ field: 'to', message: `must be within ${ATTENDANCE_SUMMARY_MAX_DAYS} days of the first day` }]);
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
}
