// One day of a client's teams for time and attendance (contract/attendanceDaily.ts): each member's shift from their
// team's work schedule, first and last granted badge-in at the clocking doors in the client's zone, leave, and the
// status the contract's rules make of them. Daily attendance, the summaries and a built timesheet all read it.
import { attendanceStatus, type DailyAttendance, type DailyAttendanceQuery as DayQuery, type DailyAttendanceRow } from '../../../contract';
import type { Db } from '../db';
import { iso } from '../../http/common';

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
          workedMinutes: worked, lateMinutes, status, leave: m.leave, graceMinutes: Number(m.grace_minutes),
        };
      }),
    };
}


/**
 * Build Timesheet [3.3]: each day of the period up to today, as daily attendance counts it, written into the timesheet
 * (one row per member and day; a member of two teams keeps the first). A day HR amended is kept as it is.
 */
export async function buildTimesheet(tx: Db, clientId: number, userId: number | null, q: { from: string; to: string; teamId?: number }, divisions: number[]) {
  const today = (await tx.query<{ d: string }>('select (now() at time zone timezone)::date::text d from clients where id = $1', [clientId])).rows[0].d;
  let written = 0, keptAmended = 0, days = 0;
  for (let date = q.from; date <= q.to && date <= today; date = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) {
    days++;
    const day = await attendanceDay(tx, clientId, { date, ...(q.teamId ? { teamId: q.teamId } : {}) }, divisions);
    const seen = new Set<number>();
    const rows = day.rows.filter((r) => !seen.has(r.identityId) && seen.add(r.identityId));
    if (!rows.length) continue;
    const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
    const { rows: done } = await tx.query<{ amended: boolean }>(`insert into timesheet_entries (client_id, identity_id, identity_name, employee_no, team_id, team, day,
        shift_start, shift_end, grace_minutes, first_in, last_out, worked_minutes, late_minutes, status, leave, built_by)
      select $1, x.* , $17 from unnest($2::int[], $3::text[], $4::text[], $5::int[], $6::text[], $7::date[], $8::text[], $9::text[], $10::int[],
        $11::timestamptz[], $12::timestamptz[], $13::int[], $14::int[], $15::text[], $16::text[]) x
      on conflict (client_id, identity_id, day) do update set identity_name = excluded.identity_name, employee_no = excluded.employee_no,
        team_id = excluded.team_id, team = excluded.team, shift_start = excluded.shift_start, shift_end = excluded.shift_end,
        grace_minutes = excluded.grace_minutes, first_in = excluded.first_in, last_out = excluded.last_out, worked_minutes = excluded.worked_minutes,
        late_minutes = excluded.late_minutes, status = excluded.status, leave = excluded.leave, built_by = excluded.built_by, built_at = now(), updated_at = now()
        where not timesheet_entries.amended
      returning amended`,
      [clientId, col('identityId'), col('name'), col('employeeNo'), col('teamId'), col('team'), rows.map(() => date), col('shiftStart'), col('shiftEnd'),
        col('graceMinutes'), col('firstIn'), col('lastOut'), col('workedMinutes'), col('lateMinutes'), col('status'), col('leave'), userId]);
    written += done.length;
    keptAmended += rows.length - done.length;
  }
  return { written, keptAmended, days };
}
