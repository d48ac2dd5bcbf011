// The days of a client's teams for time and attendance (contract/attendanceDaily.ts): each member's shift from their
// team's work schedule, first and last granted badge-in at the clocking doors in the client's zone, leave, and the
// status, worked time, unpaid break and overtime the contract's payroll rules make of them (attendanceFigures in
// contract/attendanceDaily.ts, the one function). Daily attendance, the summaries and a built timesheet all read it, a
// period at a time in one query; the timesheet's amendment [3.4] works a day out by the same function.
import {
  attendanceFigures,
  clockingDays,
  summariseDays,
  type AttendanceSummaryRow,
  type BadgeIn,
  type DailyAttendance,
  type DailyAttendanceQuery as DayQuery,
  type DailyAttendanceRow,
} from '../../../contract';
import type { Db } from '../db';
import { tenantOf } from '../tenant';
import { inLockOrder } from './lockOrder';

/** What a request about attendance reads of the client once: its zone, today and the time of day there, and the
 *  attendance properties [3.5.0] — which doors' badge-ins count (null: every door's) and the rounding of worked time. */
export interface AttendanceClock {
  zone: string;
  today: string;
  nowMinutes: number;
  roundMinutes: number;
  clockDoors: string[] | null;
}

/** A timestamp's minutes past midnight in a zone (SQL over the expressions `at` and `zone`). */
export const minuteOfDaySql = (at: string, zone: string) =>
  `(extract(hour from ${at} at time zone ${zone}) * 60 + extract(minute from ${at} at time zone ${zone}))::int`;

/** The client's attendance clock (one query; read it once a request). */
export async function attendanceClock(db: Db, clientId: number): Promise<AttendanceClock> {
  const c = (
    await db.query<{ zone: string; today: string; now_minutes: number; round_minutes: number | null; doors: number[] | null }>(
      `
    select c.timezone as zone, (now() at time zone c.timezone)::date::text as today, ${minuteOfDaySql('now()', 'c.timezone')} as now_minutes,
      p.round_minutes as round_minutes,
      (select array_agg(d.door_id) from attendance_clock_doors d where d.properties_id = p.id) as doors
    from clients c left join attendance_properties p on p.client_id = c.id
    where c.id = $1`,
      [clientId],
    )
  ).rows[0];
  return {
    zone: c.zone,
    today: c.today,
    nowMinutes: Number(c.now_minutes),
    roundMinutes: Number(c.round_minutes ?? 1),
    clockDoors: c.doors?.length ? c.doors.map(String) : null,
  };
}

/** The number of days from `from` to `to` ('YYYY-MM-DD'), both counted; 0 when `to` is before `from`. */
const daysFrom = (from: string, to: string) => Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1);

interface MemberDay {
  day: string;
  identity_id: number;
  name: string;
  employee_no: string | null;
  team_id: number;
  team: string;
  grace_minutes: number;
  break_minutes: number;
  shift_start: string | null;
  shift_end: string | null;
  swipes: { ms: number; minute: number }[] | null;
  leave: string | null;
}

const dayAfter = (ymd: string, days: number) => new Date(Date.parse(`${ymd}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Each day of a period (`from` to `to`, in the client's zone) of the client's teams (the members of `divisions` only),
 * by the contract's payroll rules and the properties: one query over the period, the days in order, each day's members
 * by team and name. Every day of the period is in the answer, a day nobody is in with no rows. The day before and the
 * day after are read too (a night shift's badge-ins run into the next morning: clockingDays) and left out.
 */
export async function attendanceDays(
  db: Db,
  clientId: number,
  q: { from: string; to: string; teamId?: number },
  divisions: number[],
  clock: AttendanceClock,
): Promise<Map<string, DailyAttendanceRow[]>> {
  const out = new Map<string, DailyAttendanceRow[]>();
  for (let i = 0; i < daysFrom(q.from, q.to); i++) out.set(dayAfter(q.from, i), []);
  if (!out.size) return out;
  // a day runs from midnight to midnight in the client's zone; the granted badge-ins of the period and a day either side
  // are read once through their partial index (events_granted_identity_at), each calendar day's in time order
  const params: unknown[] = [];
  const own = tenantOf(params, clientId); // $1
  params.push(q.from, q.to, clock.zone, q.teamId ?? null, divisions, clock.clockDoors); // $2..$7
  const { rows } = await db.query<MemberDay>(
    `
    with days as (select $2::date - 1 + g.n as day from generate_series(0, $3::date - $2::date + 2) as g(n)),
    members as (
      select i.id as identity_id, i.last_name as last_name, i.first_name as first_name, i.last_name || ', ' || i.first_name as name,
        i.employee_no as employee_no, t.id as team_id, t.name as team, w.id as schedule_id, w.grace_minutes as grace_minutes, w.break_minutes as break_minutes
      from teams t
      join team_members m on m.team_id = t.id
      join identities i on i.id = m.identity_id and ${own('i')}
      join work_schedules w on w.id = t.work_schedule_id
      where ${own('t')} and t.active and ($5::int is null or t.id = $5) and i.division_id = any($6::int[])),
    swipes as (
      select e.identity_id as identity_id, (e.at at time zone $4::text)::date as day,
        json_agg(json_build_object('ms', floor(extract(epoch from e.at) * 1000)::bigint, 'minute', ${minuteOfDaySql('e.at', '$4::text')}) order by e.at) as swipes
      from events e
      where ${own('e')} and e.event_code = 5000 and e.identity_id is not null
        and e.identity_id in (select x.identity_id from members x)
        and e.at >= (($2::date - 1)::timestamp at time zone $4::text) and e.at < (($3::date + 2)::timestamp at time zone $4::text)
        and ($7::text[] is null or e.swipe->>'doorId' = any($7::text[]))
      group by 1, 2)
    select d.day::text as day, mb.identity_id as identity_id, mb.name as name, mb.employee_no as employee_no, mb.team_id as team_id, mb.team as team,
      mb.grace_minutes as grace_minutes, mb.break_minutes as break_minutes, s.start_time as shift_start, s.end_time as shift_end, sw.swipes as swipes,
      (select c.name from leave_records l join leave_categories c on c.id = l.category_id
        where l.identity_id = mb.identity_id and ${own('l')} and l.status = 'approved' and d.day between l.from_date and l.to_date
        order by l.id limit 1) as leave
    from days d
    cross join members mb
    left join lateral (select x.start_time as start_time, x.end_time as end_time from work_schedule_shifts x
      where x.work_schedule_id = mb.schedule_id and x.day = extract(dow from d.day)::int::text order by x.start_time limit 1) s on true
    left join swipes sw on sw.identity_id = mb.identity_id and sw.day = d.day
    order by d.day, mb.team, mb.last_name, mb.first_name, mb.identity_id`,
    params,
  );
  // each member's days in order, their ins and outs by the night-shift rule
  const byMember = new Map<string, MemberDay[]>();
  for (const m of rows) {
    const key = `${m.team_id}:${m.identity_id}`;
    byMember.set(key, [...(byMember.get(key) ?? []), m]);
  }
  const clockings = new Map<MemberDay, { firstIn: BadgeIn | null; lastOut: BadgeIn | null }>();
  for (const list of byMember.values()) {
    const made = clockingDays(
      list.map((m) => ({
        shiftStart: m.shift_start,
        shiftEnd: m.shift_end,
        swipes: (m.swipes ?? []).map((x) => ({ at: new Date(Number(x.ms)).toISOString(), minute: Number(x.minute) })),
      })),
    );
    list.forEach((m, i) => clockings.set(m, made[i]));
  }
  for (const m of rows) {
    const day = String(m.day);
    const list = out.get(day);
    if (!list) continue; // the day either side
    const { firstIn, lastOut } = clockings.get(m)!;
    const f = attendanceFigures({
      day,
      today: clock.today,
      nowMinutes: clock.nowMinutes,
      onLeave: m.leave !== null,
      shiftStart: m.shift_start,
      shiftEnd: m.shift_end,
      graceMinutes: Number(m.grace_minutes),
      breakMinutes: Number(m.break_minutes),
      roundMinutes: clock.roundMinutes,
      firstIn,
      lastOut,
    });
    list.push({
      identityId: Number(m.identity_id),
      name: m.name,
      employeeNo: m.employee_no,
      teamId: Number(m.team_id),
      team: m.team,
      // a single badge-in is an in without an out
      shiftStart: m.shift_start,
      shiftEnd: m.shift_end,
      firstIn: firstIn?.at ?? null,
      lastOut: f.workedMinutes === null ? null : (lastOut?.at ?? null),
      workedMinutes: f.workedMinutes,
      lateMinutes: f.lateMinutes,
      overtimeMinutes: f.overtimeMinutes,
      status: f.status,
      leave: m.leave,
      graceMinutes: Number(m.grace_minutes),
      breakMinutes: Number(m.break_minutes),
      breakTakenMinutes: f.breakTakenMinutes,
    });
  }
  return out;
}

/** One day of the client's teams (the members of `divisions` only), by the contract's rules and the properties. */
export async function attendanceDay(db: Db, clientId: number, q: DayQuery, divisions: number[], clock?: AttendanceClock): Promise<DailyAttendance> {
  const c = clock ?? (await attendanceClock(db, clientId));
  const days = await attendanceDays(db, clientId, { from: q.date, to: q.date, ...(q.teamId ? { teamId: q.teamId } : {}) }, divisions, c);
  return { date: q.date, zone: c.zone, rows: days.get(q.date) ?? [] };
}

/** Each member's totals over the days (Attendance Summaries [3.6.0], a scheduled summary report): the contract's
 *  summariseDays, the sums of the days as daily attendance counts them. */
export const summarise = (days: Map<string, DailyAttendanceRow[]>): AttendanceSummaryRow[] => summariseDays(days.values());

/** The days of a period that are counted: from `from` up to `to` or today, whichever comes first (none when the
 *  period starts after today). */
export function countedPeriod(q: { from: string; to: string }, today: string): { from: string; to: string; days: number } {
  const to = q.to < today ? q.to : today;
  return { from: q.from, to, days: daysFrom(q.from, to) };
}

/**
 * Build Timesheet [3.3]: each day of the period up to today, as daily attendance counts it, written into the timesheet
 * (one row per member and day; a member of two teams keeps the first). A day HR amended is kept as it is.
 */
export async function buildTimesheet(
  tx: Db,
  clientId: number,
  userId: number | null,
  q: { from: string; to: string; teamId?: number },
  divisions: number[],
  clock?: AttendanceClock,
) {
  const c = clock ?? (await attendanceClock(tx, clientId));
  const period = countedPeriod(q, c.today);
  if (!period.days) return { written: 0, keptAmended: 0, days: 0 };
  const byDay = await attendanceDays(tx, clientId, { ...period, ...(q.teamId ? { teamId: q.teamId } : {}) }, divisions, c);
  const rows: (DailyAttendanceRow & { day: string })[] = [];
  for (const [day, members] of byDay) {
    const seen = new Set<number>();
    for (const r of members)
      if (!seen.has(r.identityId)) {
        seen.add(r.identityId);
        rows.push({ ...r, day });
      }
  }
  if (!rows.length) return { written: 0, keptAmended: 0, days: period.days };
  // written in the order of their keys (docs/ARCHITECTURE.md, lock order): in the order read (by team and name) two builds
  // at once of the same days could lock the same rows in other orders when a person was renamed or moved between them
  const inOrder = inLockOrder(rows, (r) => [r.day, r.identityId]);
  const col = <K extends keyof (typeof rows)[number]>(k: K) => inOrder.map((r) => r[k]);
  const { rows: done } = await tx.query<{ amended: boolean }>(
    `insert into timesheet_entries (client_id, identity_id, identity_name, employee_no, team_id, team, day,
      shift_start, shift_end, grace_minutes, first_in, last_out, worked_minutes, late_minutes, status, leave, break_minutes, overtime_minutes, built_by)
    select $1, x.* , $19 from unnest($2::int[], $3::text[], $4::text[], $5::int[], $6::text[], $7::date[], $8::text[], $9::text[], $10::int[],
      $11::timestamptz[], $12::timestamptz[], $13::int[], $14::int[], $15::text[], $16::text[], $17::int[], $18::int[]) x
    on conflict (client_id, identity_id, day) do update set identity_name = excluded.identity_name, employee_no = excluded.employee_no,
      team_id = excluded.team_id, team = excluded.team, shift_start = excluded.shift_start, shift_end = excluded.shift_end,
      grace_minutes = excluded.grace_minutes, first_in = excluded.first_in, last_out = excluded.last_out, worked_minutes = excluded.worked_minutes,
      late_minutes = excluded.late_minutes, status = excluded.status, leave = excluded.leave, break_minutes = excluded.break_minutes,
      overtime_minutes = excluded.overtime_minutes, built_by = excluded.built_by, built_at = now(), updated_at = now()
      where not timesheet_entries.amended
    returning amended`,
    [
      clientId,
      col('identityId'),
      col('name'),
      col('employeeNo'),
      col('teamId'),
      col('team'),
      col('day'),
      col('shiftStart'),
      col('shiftEnd'),
      col('graceMinutes'),
      col('firstIn'),
      col('lastOut'),
      col('workedMinutes'),
      col('lateMinutes'),
      col('status'),
      col('leave'),
      col('breakMinutes'),
      col('overtimeMinutes'),
      userId,
    ],
  );
  return { written: done.length, keptAmended: rows.length - done.length, days: period.days };
}
