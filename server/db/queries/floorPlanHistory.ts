// The site at a past moment T (issue 50, contract/floorPlanHistory.ts), one index-friendly query per kind
// (migration 170): each door's last state event up to T (a lateral probe per door of events_door_state_at), the
// audited mode changes since T walked back from today's mode, the alarms open at T (those open now and those
// processed since T, each raised by T), the last threat-level audit row up to T, and each person's last granted
// swipe up to T (a lateral probe per identity of events_granted_identity_at) with the zone that swipe let them into.
import { EVENT_CODES } from '../../../contract';
import type { PastAlarm, PastThreat, PastZone } from '../../../contract/floorPlanHistory';
import type { Db } from '../db';
import { tenantOf } from '../tenant';
import { iso } from '../values';

const STATUS_OF: Record<number, string> = {
  [EVENT_CODES.doorClosed]: 'closed',
  [EVENT_CODES.doorForcedOpen]: 'forced-open',
  [EVENT_CODES.doorHeldOpen]: 'held-open',
  [EVENT_CODES.doorLocked]: 'locked',
  [EVENT_CODES.doorUnlocked]: 'unlocked',
  [EVENT_CODES.doorMomentaryUnlock]: 'unlocked-briefly',
};

export interface PlanDoor {
  doorId: number;
  divisionId: number | null;
}

/** The plan's pinned doors (one row per door), or null when the plan is not the tenant's. */
export async function planDoors(db: Db, clientId: number, planId: number): Promise<PlanDoor[] | null> {
  const params: unknown[] = [planId];
  const inClient = tenantOf(params, clientId);
  const { rows: plan } = await db.query(`select 1 from floor_plans where id = $1 and ${inClient()}`, params);
  if (!plan[0]) return null;
  const { rows } = await db.query<{ id: number; division_id: number | null }>(
    `select distinct d.id, d.division_id from floor_plan_doors p join doors d on d.id = p.door_id and ${inClient('d')}
      where p.floor_plan_id = $1 and ${inClient('p')} order by d.id`,
    params,
  );
  return rows.map((r) => ({ doorId: Number(r.id), divisionId: r.division_id === null ? null : Number(r.division_id) }));
}

/** What a momentary unlock's relock writes (server/simulator/strike.ts): a lock of the strike, `… (relocked)`. */
const RELOCK = `(e.event_code = ${EVENT_CODES.doorLocked} and e.message like '% (relocked)')`;
/** Door states a relock leaves as they are (live, the door keeps showing its alarm state until it says otherwise). */
const KEPT_BY_RELOCK = [EVENT_CODES.doorForcedOpen, EVENT_CODES.doorHeldOpen];

/**
 * Each door's state at `at`: its last door-state event up to then (a lateral walk of events_door_state_at per door),
 * as the live door took it: a relock after a forced or held-open door left it showing the alarm (server/simulator/
 * strike.ts), so the last event that is no relock decides, and a relock after it only when it was no alarm state.
 */
export async function doorStatesAt(db: Db, clientId: number, doorIds: number[], at: string) {
  const params: unknown[] = [doorIds, at, KEPT_BY_RELOCK];
  const inClient = tenantOf(params, clientId);
  const stateOf = `e.event_source_id = 'door-' || d.id and e.event_code between 6000 and 6005 and e.at <= $2`;
  const { rows } = await db.query<{ door_id: number; event_code: number | null; at: unknown; relocked_at: unknown }>(
    `select d.id door_id, s.event_code, s.at, r.at relocked_at from unnest($1::int[]) d(id)
      left join lateral (select e.event_code, e.at from events e where ${inClient('e')} and ${stateOf} and not ${RELOCK}
        order by e.at desc, e.id desc limit 1) s on true
      left join lateral (select e.at from events e where ${inClient('e')} and ${stateOf} and ${RELOCK} and e.at >= coalesce(s.at, '-infinity'::timestamptz)
        order by e.at, e.id limit 1) r on s.event_code is null or s.event_code <> all($3::int[])
      where s.at is not null or r.at is not null`,
    params,
  );
  return new Map(
    rows.map((r) => {
      const relocked = r.relocked_at !== null && r.relocked_at !== undefined;
      return [
        Number(r.door_id),
        relocked ? { status: 'locked', changedAt: iso(r.relocked_at) } : { status: STATUS_OF[Number(r.event_code)] ?? null, changedAt: iso(r.at) },
      ];
    }),
  );
}

/**
 * Each door's mode at `at`: today's mode, walked back through the audited changes since `at`, newest first (an
 * edit gives back its `before` mode; undoing a release puts the door back in lockdown, undoing a lockdown gives
 * back the mode it had before it).
 */
export async function doorModesAt(db: Db, clientId: number, doorIds: number[], at: string) {
  const params: unknown[] = [doorIds];
  const inClient = tenantOf(params, clientId);
  const { rows: now } = await db.query<{ id: number; mode: string; mode_before_lockdown: string | null }>(
    `select id, mode, mode_before_lockdown from doors where id = any($1::int[]) and ${inClient()}`,
    params,
  );
  const p2: unknown[] = [at];
  const inClient2 = tenantOf(p2, clientId);
  const { rows: changes } = await db.query<{ action: string; entity_id: string | null; before: any; after: any }>(
    `select action, entity_id, before, after from audit_log
      where ${inClient2()} and entity = 'door' and action in ('update', 'lockdown', 'release lockdown') and at > $1
      order by at desc, id desc`,
    p2,
  );
  const modes = new Map<number, { mode: string; before: string | null }>();
  for (const d of now) modes.set(Number(d.id), { mode: d.mode, before: d.mode_before_lockdown });
  for (const c of changes) {
    if (c.action === 'update') {
      const m = modes.get(Number(c.entity_id));
      const was = c.before?.mode;
      if (m && typeof was === 'string' && was !== c.after?.mode) m.mode = was;
      continue;
    }
    const ids: unknown[] = Array.isArray(c.after?.doors) ? c.after.doors : [];
    for (const id of ids) {
      const m = modes.get(Number(id));
      if (!m) continue;
      if (c.action === 'release lockdown') {
        m.before = m.mode;
        m.mode = 'locked-down';
      } else {
        m.mode = m.before ?? 'card';
        m.before = null;
      }
    }
  }
  return new Map([...modes].map(([id, m]) => [id, m.mode]));
}

const alarmRow = (r: any, doorOf: (pointId: string) => number | null, at: number | null): PastAlarm => ({
  eventId: Number(r.event_id),
  eventCode: Number(r.event_code),
  message: r.message,
  ...(r.message_code
    ? { messageCode: r.message_code, messageValues: typeof r.message_values === 'string' ? JSON.parse(r.message_values) : (r.message_values ?? {}) }
    : {}),
  priority: Number(r.priority),
  raisedAt: iso(r.raised_at)!,
  state: at !== null && r.acknowledged_at && Date.parse(iso(r.acknowledged_at)!) <= at ? 'acknowledged' : 'raised',
  doorId: doorOf(r.event_point_id),
});

/** A pinned door's id from an event's point (`door-N`, `reader-N`, `input-N`, `output-N`), if it is on the plan. */
export const pinnedDoorOf =
  (doorIds: readonly number[]) =>
  (pointId: string): number | null => {
    const m = /^(?:door|reader|input|output)-(\d{1,9})$/.exec(pointId ?? '');
    return m && doorIds.includes(Number(m[1])) ? Number(m[1]) : null;
  };

/**
 * The alarms open at `at` within `divisions` (null: all): raised by then and not processed by then. They are the ones
 * still open now (alarms_open) and those processed after `at` (alarms_processed_at), most urgent first.
 */
export async function alarmsOpenAt(db: Db, clientId: number, divisions: number[] | null, doorIds: number[], at: string, limit: number) {
  const params: unknown[] = [at, divisions, limit];
  const inClient = tenantOf(params, clientId);
  const scope = `(cast($2 as int[]) is null or e.division_id is null or e.division_id = any($2::int[]))`;
  const cols = `a.event_id, a.event_code, a.event_point_id, a.priority, a.raised_at, a.acknowledged_at, e.message, e.message_code, e.message_values`;
  const { rows } = await db.query(
    `select * from (
       select ${cols} from alarms a join events e on e.id = a.event_id
        where ${inClient('a')} and a.state <> 'processed' and a.raised_at <= $1 and not a.shelved and ${scope}
       union all
       select ${cols} from alarms a join events e on e.id = a.event_id
        where ${inClient('a')} and a.processed_at is not null and a.processed_at > $1 and a.raised_at <= $1 and not a.shelved and ${scope}
     ) o order by priority, raised_at desc limit $3`,
    params,
  );
  const t = Date.parse(at);
  return rows.map((r) => alarmRow(r, pinnedDoorOf(doorIds), t));
}

/** The alarms raised in [from, to] within `divisions` (null: all), newest first (alarms_raised). */
export async function alarmsRaisedIn(db: Db, clientId: number, divisions: number[] | null, doorIds: number[], from: string, to: string, limit: number) {
  const params: unknown[] = [from, to, divisions, limit];
  const inClient = tenantOf(params, clientId);
  const { rows } = await db.query(
    `select a.event_id, a.event_code, a.event_point_id, a.priority, a.raised_at, a.acknowledged_at, e.message, e.message_code, e.message_values
       from alarms a join events e on e.id = a.event_id
      where ${inClient('a')} and a.raised_at >= $1 and a.raised_at <= $2 and not a.shelved
        and (cast($3 as int[]) is null or e.division_id is null or e.division_id = any($3::int[]))
      order by a.raised_at desc, a.event_id desc limit $4`,
    params,
  );
  return rows.map((r) => alarmRow(r, pinnedDoorOf(doorIds), null));
}

/** The threat level in force at `at`: the last threat-level audit row up to then, unless it lowered the level or ran out. */
export async function threatAt(db: Db, clientId: number, at: string): Promise<PastThreat | null> {
  const params: unknown[] = [at];
  const inClient = tenantOf(params, clientId);
  const { rows } = await db.query<{ action: string; after: any; at: unknown }>(
    `select action, after, at from audit_log where ${inClient()} and entity = 'threat level' and at <= $1 order by at desc, id desc limit 1`,
    params,
  );
  const r = rows[0];
  if (!r || r.action !== 'threat level' || !r.after?.level) return null;
  const until = typeof r.after.until === 'string' ? r.after.until : null;
  if (until && Date.parse(until) <= Date.parse(at)) return null;
  const divisionId = typeof r.after.divisionId === 'number' ? r.after.divisionId : null;
  let divisionName: string | null = null;
  if (divisionId !== null) {
    const p2: unknown[] = [divisionId];
    const { rows: d } = await db.query<{ name: string }>(`select name from divisions where id = $1 and ${tenantOf(p2, clientId)()}`, p2);
    divisionName = d[0]?.name ?? null;
  }
  return { level: String(r.after.level), divisionId, divisionName, setAt: iso(r.at)!, until };
}

/**
 * Who was in which access zone at `at`: each identity's last granted swipe up to then and the zone it let them into,
 * unless an operator forgave them (Forgive on the zone's occupants: presence dropped, audited) after it and by then.
 */
export async function zonesAt(db: Db, clientId: number, at: string): Promise<PastZone[]> {
  const params: unknown[] = [at, EVENT_CODES.accessGranted];
  const inClient = tenantOf(params, clientId);
  const { rows } = await db.query<{ zone_id: number; zone_name: string; identity_id: number; name: string; at: unknown }>(
    `with forgiven as (select f.after->>'identityId' identity_id, max(f.at) at from audit_log f
        where ${inClient('f')} and f.entity = 'access zone' and f.action = 'forgive' and f.at <= $1 group by 1)
     select z.id zone_id, z.name zone_name, i.id identity_id, i.first_name || ' ' || i.last_name as name, g.at
       from identities i
       cross join lateral (select e.at, e.swipe from events e
         where ${inClient('e')} and e.identity_id = i.id and e.event_code = $2 and e.at <= $1 order by e.at desc limit 1) g
       join doors d on d.id = (case when g.swipe->>'doorId' ~ '^[0-9]{1,9}$' then (g.swipe->>'doorId')::int end) and ${inClient('d')}
       join access_zones z on z.id = (case when g.swipe->>'side' = 'exit' then d.exit_zone_id else d.entry_zone_id end) and ${inClient('z')}
       left join forgiven f on f.identity_id = i.id::text
      where ${inClient('i')} and (f.at is null or f.at < g.at)
      order by z.name, z.id, name, i.id`,
    params,
  );
  const zones = new Map<number, PastZone>();
  for (const r of rows) {
    const id = Number(r.zone_id);
    let z = zones.get(id);
    if (!z) zones.set(id, (z = { zoneId: id, name: r.zone_name, people: [] }));
    z.people.push({ identityId: Number(r.identity_id), name: r.name, since: iso(r.at)! });
  }
  return [...zones.values()];
}
