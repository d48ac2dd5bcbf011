// The alarm-management figures of ISA-18.2 / IEC 62682 on the alarm handling report (issue 50; contract
// alarmManagement.ts AlarmManagementFigures), for the report's period [start, end) cut at now, the same alarms as the
// report's (the client's, division-scoped by their events):
//  - alarms per operator-hour: the alarms raised over the hours of the period (one alarm desk per client);
//  - flood: the period cut into 10-minute windows from its start; a window with more than ALARM_FLOOD_COUNT alarms is in
//    flood; the share is flood windows over all windows;
//  - top 10 sources: the event points that raised most alarms (ties by point id);
//  - chattering: sources raising more than ALARM_CHATTER_COUNT alarms within any minute (a sliding window: a burst
//    across the turn of a minute counts too), with how many bursts (chattering alarms less than a minute apart are
//    one burst) and the alarms in them;
//  - stale: alarms raised in the period still not processed ALARM_STALE_HOURS after raising, by the period's end (or now);
//  - shelvings begun and escalation steps taken in the period.
import { ALARM_FLOOD_WINDOW_MS, type AlarmManagementFigures } from '../../contract/alarmManagement';
import type { Db } from '../db/db';
import { alarmFigureRows, shelvingAndEscalationCounts } from '../db/queries/alarmFigures';

export async function alarmManagementFigures(
  db: Db,
  clientId: number,
  start: Date,
  end: Date,
  divisions: readonly number[] | null,
  now = new Date(),
): Promise<AlarmManagementFigures> {
  const until = new Date(Math.min(end.getTime(), Math.max(start.getTime(), now.getTime())));
  const rows = await alarmFigureRows(db, clientId, start, until, divisions);
  const counts = await shelvingAndEscalationCounts(db, clientId, start, until);
  const one = (what: string) => Number(rows.find((r) => r.what === what)?.n ?? 0);
  const hours = (until.getTime() - start.getTime()) / 3_600_000;
  const windows = Math.ceil((until.getTime() - start.getTime()) / ALARM_FLOOD_WINDOW_MS);
  const raised = one('raised');
  const flood = one('flood');
  return {
    perOperatorHour: hours > 0 ? Math.round((raised / hours) * 100) / 100 : 0,
    floodShare: windows > 0 ? Math.round((flood / windows) * 10_000) / 10_000 : 0,
    floodWindows: flood,
    windows,
    topSources: rows
      .filter((r) => r.what === 'top')
      .map((r) => ({ pointId: String(r.point), name: r.name, count: Number(r.n) }))
      .sort((a, b) => b.count - a.count || a.pointId.localeCompare(b.pointId)),
    chattering: rows
      .filter((r) => r.what === 'chatter')
      .map((r) => ({ pointId: String(r.point), name: r.name, bursts: Number(r.m), count: Number(r.n) }))
      .sort((a, b) => b.count - a.count || a.pointId.localeCompare(b.pointId)),
    stale: one('stale'),
    shelvings: Number(counts.shelvings),
    escalations: Number(counts.escalations),
  };
}
