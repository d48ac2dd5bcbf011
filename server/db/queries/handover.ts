// The shift handover's SQL (issue 31, part 3; issue 48: the handover's queries in the queries room). Every query names
// the client on each of its tables (server/db/tenant.ts); the digest's lists are bounded for a person to read.
import { EVENT_CODES } from '../../../contract';
import { DENIAL_CODES, DENIAL_REPEAT } from '../../../contract/handover';
import type { Db } from '../db';
import { tenant, tenantOf } from '../tenant';

/** A shift's instants (the digest's period). */
export interface ShiftPeriod {
  start: Date;
  end: Date;
}

/** Door statuses that are not the door's normal state: alarms, unlocked, unreachable. */
export const ABNORMAL_STATUSES = ['unlocked', 'unlocked-briefly', 'forced-open', 'held-open', 'offline', 'tamper'];
/** Door modes worth handing over (card and card-and-PIN are normal running). */
export const ABNORMAL_MODES = ['unlocked', 'locked-down'];
/** Events that set a door's status (server/simulator/hardware.ts doorStatusOf). */
const STATUS_CODES = [
  EVENT_CODES.doorForcedOpen,
  EVENT_CODES.doorHeldOpen,
  EVENT_CODES.doorClosed,
  EVENT_CODES.doorLocked,
  EVENT_CODES.doorUnlocked,
  EVENT_CODES.doorMomentaryUnlock,
  EVENT_CODES.readerTamper,
];
/** At most this many rows in a list of the digest (open alarms, doors, visitors…): a handover is read by a person. */
const LIST_MAX = 200;

/** The client's shift boundaries setting and its zone. */
export async function shiftSettingsOf(db: Db, clientId: number): Promise<{ boundaries: string | null; zone: string }> {
  const {
    rows: [kept],
  } = await db.query<{ boundaries: string | null; zone: string }>(
    `select s.boundaries, coalesce(nullif(c.timezone, ''), 'UTC') as zone
    from clients c left join shift_settings s on s.client_id = c.id where c.id = $1`,
    [clientId],
  );
  return kept;
}

/** The boundary instants of local days ref−2 … ref+1 in `zone`, oldest first (the zone's rules handle daylight saving). */
export async function boundaryInstants(db: Db, ref: Date, zone: string, times: readonly string[]): Promise<Date[]> {
  const { rows } = await db.query<{ at: Date }>(
    `select distinct ((d::date + b::time)::timestamp at time zone $2::text) as at
    from generate_series(($1::timestamptz at time zone $2::text)::date - 2, ($1::timestamptz at time zone $2::text)::date + 1, interval '1 day') d, unnest($3::text[]) b
    order by 1`,
    [ref.toISOString(), zone, [...times]],
  );
  return rows.map((r) => new Date(r.at));
}

/** The database's clock (the digest's "as of" and the latest shift are read on it, not the server's). */
export async function databaseNow(db: Db): Promise<Date> {
  const {
    rows: [{ now }],
  } = await db.query<{ now: Date }>('select now() as now');
  return new Date(now);
}

/** The rows of a shift's digest for one client, within `divisions` (null: all): the handover's queries, read as they are. */
export async function digestRows(db: Db, clientId: number, shift: ShiftPeriod, divisions: readonly number[] | null) {
  const p: unknown[] = [];
  const own = tenantOf(p, clientId); // $1, named on each table of the queries below
  p.push(shift.start.toISOString(), shift.end.toISOString(), divisions ? [...divisions] : null);
  const EVENT_SCOPE = '($4::int[] is null or e.division_id is null or e.division_id = any($4::int[]))';
  const ROW_SCOPE = (alias: string) => `($4::int[] is null or ${alias}.division_id is null or ${alias}.division_id = any($4::int[]))`;

  // alarms: raised and processed in the shift, open at its end (with their notes)
  const { rows: raised } = await db.query<{ priority: number; n: string }>(
    `select a.priority, count(*)::text as n from alarms a join events e on e.id = a.event_id
    where ${own('a')} and ${own('e')} and a.raised_at >= $2 and a.raised_at < $3 and ${EVENT_SCOPE} group by a.priority order by a.priority`,
    p,
  );
  const {
    rows: [processed],
  } = await db.query<{ n: string }>(
    `select count(*)::text as n from alarms a join events e on e.id = a.event_id
    where ${own('a')} and ${own('e')} and a.processed_at >= $2 and a.processed_at < $3 and ${EVENT_SCOPE}`,
    p,
  );
  const { rows: open } = await db.query<any>(
    `select a.event_id, a.priority, a.state, a.raised_at, a.acknowledged_by, a.processed_at, e.event_point_name, e.event_code,
      (select t.name from alarm_types t where t.event_code = a.event_code and (${own('t')} or t.client_id is null) order by t.client_id nulls last limit 1) as type_name
    from alarms a join events e on e.id = a.event_id
    where ${own('a')} and ${own('e')} and $2::timestamptz is not null and a.raised_at < $3 and (a.processed_at is null or a.processed_at >= $3) and ${EVENT_SCOPE}
    order by a.priority, a.raised_at, a.event_id limit ${LIST_MAX}`,
    p,
  );
  const noteParams: unknown[] = [open.map((a) => a.event_id)];
  const { rows: notes } = await db.query<any>(
    `select alarm_id, at, actor, action, note from alarm_history
    where alarm_id = any($1::bigint[]) and ${tenant(noteParams, clientId)} and coalesce(btrim(note), '') <> '' order by alarm_id, id`,
    noteParams,
  );

  // doors not in their normal mode now, and since when: status (its last status event), mode (its last change in
  // the audit trail, or the unlock schedule's mark), overrides in force
  const { rows: doorRows } = await db.query<any>(
    `select d.id, d.name, dv.name as division, d.status, d.mode,
      (select max(x.at) from (
        (select e.at from events e where ${own('e')} and e.event_point_id = 'door-' || d.id and e.event_code = any($5::int[]) order by e.id desc limit 1)
        union all (select e.at from events e where ${own('e')} and e.event_point_id = 'output-' || d.id and e.event_code = any($5::int[]) order by e.id desc limit 1)) x) as status_since,
      coalesce(case when d.mode = 'unlocked' then d.schedule_unlocked_at end, (select max(l.at) from audit_log l where ${own('l')}
        and ((l.entity in ('door', 'doors') and l.entity_id = d.id::text) or (l.action = 'lockdown' and l.after -> 'doors' @> to_jsonb(d.id))))) as mode_since
    from doors d left join divisions dv on dv.id = d.division_id
    where ${own('d')} and (d.status = any($6::text[]) or d.mode = any($7::text[])) and ${ROW_SCOPE('d')} and $2::timestamptz is not null and $3::timestamptz is not null
    order by d.name, d.id limit ${LIST_MAX}`,
    [...p, STATUS_CODES, ABNORMAL_STATUSES, ABNORMAL_MODES],
  );
  const { rows: overrides } = await db.query<any>(
    `select d.id, d.name, dv.name as division, o.name as override, o.mode, o.applied_start_at, o.ends_at
    from door_overrides o join door_override_doors od on od.override_id = o.id join doors d on d.id = od.door_id left join divisions dv on dv.id = d.division_id
    where ${own('o')} and o.applied_start_at is not null and o.applied_end_at is null and ${ROW_SCOPE('d')} and $2::timestamptz is not null and $3::timestamptz is not null
    order by d.name, d.id limit ${LIST_MAX}`,
    p,
  );

  const threatParams: unknown[] = [];
  const {
    rows: [threat],
  } = await db.query<any>(
    `select l.name, l.rank, l.mode, dv.name as division, s.set_at, coalesce(nullif(u.name, ''), s.set_by) as set_by, s.until
    from threat_level_state s join threat_levels l on l.id = s.level_id left join divisions dv on dv.id = s.division_id
    left join users u on u.username = s.set_by
    where ${tenant(threatParams, clientId, 's')} and (s.until is null or s.until > now())`,
    threatParams,
  );

  // hardware offline now: controllers (their last offline event), readers (whose last word was "offline")
  const { rows: controllers } = await db.query<any>(
    `select c.id, c.name,
      (select e.at from events e where ${own('e')} and e.event_point_id = 'iface-' || c.id and e.event_code = $5 order by e.id desc limit 1) as since
    from controllers c where ${own('c')} and c.status <> 'online' and ${ROW_SCOPE('c')} and $2::timestamptz is not null and $3::timestamptz is not null
    order by c.name, c.id limit ${LIST_MAX}`,
    [...p, EVENT_CODES.interfaceOffline],
  );
  const { rows: readers } = await db.query<any>(
    `select d.id, d.name, r.event_code, r.at from doors d
    cross join lateral (select e.event_code, e.at from events e where ${own('e')} and e.event_point_id = 'reader-' || d.id and e.event_code = any($5::int[]) order by e.id desc limit 1) r
    where ${own('d')} and r.event_code = $6 and ${ROW_SCOPE('d')} and $2::timestamptz is not null and $3::timestamptz is not null
    order by d.name, d.id limit ${LIST_MAX}`,
    [...p, [EVENT_CODES.readerOnline, EVENT_CODES.readerOffline], EVENT_CODES.readerOffline],
  );

  const visitorParams: unknown[] = [];
  const { rows: visitors } = await db.query<any>(
    `select id, first_name, last_name, company, host_name, signed_in_at from visitors
    where ${tenant(visitorParams, clientId)} and status = 'on-site' order by signed_in_at nulls first, id limit ${LIST_MAX}`,
    visitorParams,
  );

  // notable denials: the shift's denied swipes per reason, and the credentials denied again and again
  const DENIED = `${own('e')} and e.at >= $2 and e.at < $3 and e.event_code between ${DENIAL_CODES.from} and ${DENIAL_CODES.to} and ${EVENT_SCOPE}`;
  const { rows: byReason } = await db.query<{ event_code: number; n: string }>(
    `select e.event_code, count(*)::text as n from events e where ${DENIED}
    group by e.event_code order by count(*) desc, e.event_code`,
    p,
  );
  // issue 50: the alarm sources kept off the consoles at some time of the shift
  const ps: unknown[] = [shift.start, shift.end];
  const { rows: shelved } = await db.query<any>(
    `select id, point_name, reason, shelved_by, shelved_at, until, ended_at from alarm_shelvings
      where ${tenant(ps, clientId)} and shelved_at < $2 and coalesce(ended_at, until) >= $1 order by shelved_at desc limit ${LIST_MAX}`,
    ps,
  );
  const { rows: repeated } = await db.query<any>(
    `select coalesce(e.swipe ->> 'card', 'identity ' || e.identity_id::text, e.event_source_id) as credential,
      max(i.first_name) as first_name, max(i.last_name) as last_name, count(*)::text as n, array_agg(distinct coalesce(e.event_point_name, e.event_source_name, '')) as doors
    from events e left join identities i on i.id = e.identity_id and ${own('i')} where ${DENIED}
    group by 1 having count(*) >= ${DENIAL_REPEAT} order by count(*) desc, 1 limit ${LIST_MAX}`,
    p,
  );

  return { raised, processed, open, notes, doorRows, overrides, threat, controllers, readers, visitors, byReason, shelved, repeated };
}
export type DigestRows = Awaited<ReturnType<typeof digestRows>>;

/** The acknowledgement of the shift ending at `end` and the one before it (newest first, at most two). */
export async function acknowledgementRows(db: Db, clientId: number, end: Date) {
  const params: unknown[] = [end.toISOString()];
  const { rows } = await db.query<any>(
    `select h.id, h.shift_end, h.acknowledged_by, h.acknowledged_at, h.note, u.name from shift_handovers h left join users u on u.username = h.acknowledged_by
    where h.shift_end <= $1 and ${tenant(params, clientId, 'h')} order by h.shift_end desc limit 2`,
    params,
  );
  return rows;
}

/** The client's acknowledged handovers, newest first (at most 100), with how many alarms each left open. */
export async function handoverHistoryRows(db: Db, clientId: number) {
  const params: unknown[] = [];
  const { rows } = await db.query<any>(
    `select h.id, h.shift_start, h.shift_end, h.acknowledged_by, h.acknowledged_at, h.note, u.name,
      jsonb_array_length(coalesce(h.digest -> 'alarms' -> 'open', '[]'::jsonb)) as open
    from shift_handovers h left join users u on u.username = h.acknowledged_by where ${tenant(params, clientId, 'h')} order by h.shift_end desc limit 100`,
    params,
  );
  return rows;
}

/** The digest kept when handover `id` of the client was acknowledged (undefined: none of this client's). */
export async function storedDigest(db: Db, clientId: number, id: number): Promise<unknown> {
  const params: unknown[] = [id];
  const {
    rows: [h],
  } = await db.query<any>(`select digest from shift_handovers where id = $1 and ${tenant(params, clientId)}`, params);
  return h ? (typeof h.digest === 'string' ? JSON.parse(h.digest) : h.digest) : undefined;
}

/** Keeps the acknowledgement of a shift (once per client and shift end): its id, or null when it was already kept. */
export async function insertHandover(
  db: Db,
  row: { clientId: number; shift: ShiftPeriod; by: string; note: string | null; digest: unknown },
): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>(
    `insert into shift_handovers (client_id, shift_start, shift_end, acknowledged_by, note, digest)
    values ($1, $2, $3, $4, $5, $6) on conflict (client_id, shift_end) do nothing returning id`,
    [row.clientId, row.shift.start.toISOString(), row.shift.end.toISOString(), row.by, row.note, JSON.stringify(row.digest)],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** Who acknowledged the shift ending at `end`, and when. */
export async function acknowledgedBy(db: Db, clientId: number, end: Date) {
  const params: unknown[] = [end.toISOString()];
  const {
    rows: [h],
  } = await db.query<any>(
    `select h.acknowledged_by, h.acknowledged_at, u.name from shift_handovers h left join users u on u.username = h.acknowledged_by
    where h.shift_end = $1 and ${tenant(params, clientId, 'h')}`,
    params,
  );
  return h as { acknowledged_by: string; acknowledged_at: Date; name: string | null } | undefined;
}
