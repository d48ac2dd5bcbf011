// The dashboard of one client (issue 10): counts, open alarms by priority, alarms and events per hour over the last
// 24 hours, doors by state and today's visitors. Each part is read only when asked for (the route asks for the parts
// the user may see); `divisions` limits the parts whose rows have a division (identities, credentials, doors,
// divisions, and alarms and events by their source's division) to the user's, and a door or an event without a
// division belongs to the whole client.
import { formatInTimeZone } from 'date-fns-tz';
import type { Db } from '../db';
import { attendanceClock, attendanceDay } from './attendance';
import { tenant } from '../tenant';
import type { DashboardPart, DashboardSummary, HourCount } from '../../../contract';

export interface DashboardAsk {
  part: DashboardPart;
  divisions: number[];
}

const count = async (db: Db, sql: string, params: unknown[]) => Number((await db.query<{ n: string }>(sql, params)).rows[0].n);

/** 24 hourly buckets ending with the current hour (UTC hours), oldest first; hours without rows count 0. */
async function perHour(db: Db, sql: string, params: unknown[]): Promise<HourCount[]> {
  const { rows } = await db.query<{ h: Date | string; n: string; now_h: Date | string }>(sql, params);
  const nowRow = await db.query<{ now_h: Date | string }>(`select date_trunc('hour', now()) now_h`);
  const end = new Date(nowRow.rows[0].now_h).getTime();
  const byHour = new Map(rows.map((r) => [new Date(r.h).getTime(), Number(r.n)]));
  return Array.from({ length: 24 }, (_, i) => {
    const t = end - (23 - i) * 3_600_000;
    return { hour: new Date(t).toISOString(), count: byHour.get(t) ?? 0 };
  });
}
const SINCE = `date_trunc('hour', now()) - interval '23 hours'`;
/** An event (alias e) of the user's divisions ($1), or of none. */
const IN_DIVISIONS = `(e.division_id is null or e.division_id = any($1::int[]))`;

export async function dashboardParts(db: Db, clientId: number, asks: DashboardAsk[]): Promise<Omit<DashboardSummary, 'recentChanges'>> {
  const out: Omit<DashboardSummary, 'recentChanges'> = {};
  for (const { part, divisions } of asks) {
    // a part's query: the user's divisions are $1, the tenant's condition is tenant()'s (server/db/tenant.ts), $2
    const params: unknown[] = [divisions];
    const own = (alias?: string) => tenant(params, clientId, alias);
    switch (part) {
      // issue 13: counted as rows change (migration 100's triggers), not on every dashboard (0.3–0.9 s at 200,000)
      case 'identities':
        out.identities = await count(
          db,
          `select coalesce(sum(identities), 0)::text n from division_counts where ${own()} and division_id = any($1::int[])`,
          params,
        );
        break;
      case 'activeCredentials':
        out.activeCredentials = await count(
          db,
          `select coalesce(sum(active_credentials), 0)::text n from division_counts where ${own()} and division_id = any($1::int[])`,
          params,
        );
        break;
      case 'divisions':
        out.divisions = await count(db, `select count(*)::text n from divisions where ${own()} and id = any($1::int[])`, params);
        break;
      case 'doors':
        out.doors = await count(db, `select count(*)::text n from doors where ${own()} and (division_id is null or division_id = any($1::int[]))`, params);
        break;
      case 'doorsByState': {
        const { rows } = await db.query<{ status: string; n: string }>(
          `select status, count(*)::text n from doors
          where ${own()} and (division_id is null or division_id = any($1::int[])) group by status order by status`,
          params,
        );
        out.doorsByState = rows.map((r) => ({ status: r.status, count: Number(r.n) }));
        break;
      }
      case 'controllers': {
        const whole: unknown[] = []; // the client's controllers, whatever the divisions
        out.controllers = await count(db, `select count(*)::text n from controllers where ${tenant(whole, clientId)}`, whole);
        break;
      }
      case 'openAlarms':
        out.openAlarms = await count(
          db,
          `select count(*)::text n from alarms a join events e on e.id = a.event_id
          where ${own('a')} and a.state <> 'processed' and ${IN_DIVISIONS}`,
          params,
        );
        break;
      case 'alarmsByPriority': {
        const { rows } = await db.query<{ priority: number; n: string }>(
          `select a.priority, count(*)::text n from alarms a join events e on e.id = a.event_id
          where ${own('a')} and a.state <> 'processed' and ${IN_DIVISIONS} group by a.priority order by a.priority`,
          params,
        );
        out.alarmsByPriority = rows.map((r) => ({ priority: Number(r.priority), count: Number(r.n) }));
        break;
      }
      case 'alarmsPerHour':
        out.alarmsPerHour = await perHour(
          db,
          `select date_trunc('hour', a.raised_at) h, count(*)::text n from alarms a join events e on e.id = a.event_id
          where ${own('a')} and a.raised_at >= ${SINCE} and ${IN_DIVISIONS} group by 1`,
          params,
        );
        break;
      case 'eventsPerHour':
        // over (client_id, at desc, id desc): one range scan of the last 24 hours
        out.eventsPerHour = await perHour(
          db,
          `select date_trunc('hour', e.at) h, count(*)::text n from events e
          where ${own('e')} and e.at >= ${SINCE} and ${IN_DIVISIONS} group by 1`,
          params,
        );
        break;
      case 'visitorsToday': {
        const { rows } = await db.query<{ day: string; status: string | null; n: string }>(
          `select (now() at time zone c.timezone)::date::text as day, v.status, count(v.id)::text n
          from clients c left join visitors v on v.client_id = c.id and v.visit_date = (now() at time zone c.timezone)::date
          where c.id = $1 group by 1, 2`,
          [clientId],
        );
        const of = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
        out.visitorsToday = { day: rows[0]?.day ?? '', expected: of('expected'), onSite: of('on-site'), left: of('left') };
        break;
      }
      case 'attendanceToday': {
        // issue 50: HR's figure of the day, counted from Daily Attendance's own rows for today in the client's zone
        const clock = await attendanceClock(db, clientId);
        const day = formatInTimeZone(new Date(), clock.zone, 'yyyy-MM-dd');
        const { rows } = await attendanceDay(db, clientId, { date: day }, divisions, clock);
        const of = (status: string) => rows.filter((r) => r.status === status).length;
        out.attendanceToday = {
          day,
          expected: rows.filter((r) => r.status !== 'day-off').length,
          present: of('present'),
          late: of('late'),
          absent: of('absent'),
          onLeave: of('on-leave'),
          notYet: of('not-yet'),
        };
        break;
      }
      case 'recentChanges':
        break; // the route reads the audit trail itself
    }
  }
  return out;
}
