// The shift handover (issue 31, part 3; contract/handover.ts). The client's shift boundaries come from the shift
// settings [0.2.6.2]; a shift is [previous boundary, boundary), computed in the database in the client's zone (its zone
// rules handle daylight saving). Routes:
//   GET  /event/handover/latest        the shift that ended last [0.2.6.0]
//   GET  /event/handover?end=ISO       the shift that ended at `end` (a boundary, not in the future) [0.2.6.0]
//   POST /event/handover/acknowledge   {end, note?}: acknowledged once per client and shift, audited [0.2.6.1]
//   GET  /event/handover/history       the acknowledged handovers, newest first [0.2.6.0]
//   GET  /event/handover/:id           an acknowledged handover as it was acknowledged (another tenant's: 404) [0.2.6.0]
// Division scope as the alarms list: events, doors and controllers of the user's divisions for the view code, and of none.
import type { FastifyInstance } from 'fastify';
import { EVENT_CODES, PRIV, eventLabel } from '../../contract';
import {
  AcknowledgeHandoverBody,
  DENIAL_CODES,
  DENIAL_REPEAT,
  HANDOVER_API,
  HandoverQuery,
  shiftBoundaries,
  type HandoverAlarm,
  type HandoverDigest,
  type HandoverDoor,
  type HandoverHistory,
  type HandoverOffline,
} from '../../contract/handover';
import { eventDivisions } from '../auth/eventScope';
import type { Db } from '../db/db';
import { HttpError, body, clientOf, fill, idParam, principal, query } from './kit';
import { iso } from '../db/values';
import { audit } from '../audit/trail';
import { tenant, tenantOf } from '../db/tenant';

export interface Shift {
  zone: string;
  start: Date;
  end: Date;
}

/** Door statuses that are not the door's normal state: alarms, unlocked, unreachable. */
const ABNORMAL_STATUSES = ['unlocked', 'unlocked-briefly', 'forced-open', 'held-open', 'offline', 'tamper'];
/** Door modes worth handing over (card and card-and-PIN are normal running). */
const ABNORMAL_MODES = ['unlocked', 'locked-down'];
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

/** The client's zone and its boundaries as instants around `ref`: local days ref−2 … ref+1, oldest first. */
async function boundariesAround(db: Db, clientId: number, ref: Date): Promise<{ zone: string; at: Date[] }> {
  const {
    rows: [kept],
  } = await db.query<{ boundaries: string | null; zone: string }>(
    `select s.boundaries, coalesce(nullif(c.timezone, ''), 'UTC') as zone
    from clients c left join shift_settings s on s.client_id = c.id where c.id = $1`,
    [clientId],
  );
  const times = shiftBoundaries(kept?.boundaries);
  const { rows } = await db.query<{ at: Date }>(
    `select distinct ((d::date + b::time)::timestamp at time zone $2::text) as at
    from generate_series(($1::timestamptz at time zone $2::text)::date - 2, ($1::timestamptz at time zone $2::text)::date + 1, interval '1 day') d, unnest($3::text[]) b
    order by 1`,
    [ref.toISOString(), kept.zone, times],
  );
  return { zone: kept.zone, at: rows.map((r) => new Date(r.at)) };
}

/** The shift that ended last before now (`end` given: the one ending then; null when `end` is not a past boundary). */
export async function shiftOf(db: Db, clientId: number, end: Date | null = null): Promise<Shift | null> {
  const {
    rows: [{ now }],
  } = await db.query<{ now: Date }>('select now() as now');
  const ref = end ?? new Date(now);
  if (ref.getTime() > new Date(now).getTime()) return null;
  const { zone, at } = await boundariesAround(db, clientId, ref);
  const ended = at.filter((t) => t.getTime() <= ref.getTime());
  const last = ended[ended.length - 1];
  if (!last || (end && last.getTime() !== end.getTime())) return null;
  const before = at.filter((t) => t.getTime() < last.getTime());
  return { zone, start: before[before.length - 1] ?? new Date(last.getTime() - 86_400_000), end: last };
}

/** The shifts that ended in [from, to) (a scheduled report's period), oldest first (at most 40 days' worth). */
export async function shiftsEndingIn(db: Db, clientId: number, from: Date, to: Date): Promise<Shift[]> {
  const out: Shift[] = [];
  let cursor = to;
  for (let i = 0; i < 12 * 40; i++) {
    const s = await shiftBefore(db, clientId, cursor);
    if (!s || s.end.getTime() < from.getTime()) break;
    out.unshift(s);
    cursor = s.end;
  }
  return out;
}
/** The shift that ended last strictly before `t`. */
async function shiftBefore(db: Db, clientId: number, t: Date): Promise<Shift | null> {
  const { zone, at } = await boundariesAround(db, clientId, t);
  const ended = at.filter((x) => x.getTime() < t.getTime());
  const last = ended[ended.length - 1];
  if (!last) return null;
  return { zone, start: ended[ended.length - 2] ?? new Date(last.getTime() - 86_400_000), end: last };
}

const name = (first: unknown, last: unknown) => [first, last].filter((x) => x).join(' ');
/** The digest of `shift` for one client, within `divisions` (null: all). */
export async function handoverDigest(
  db: Db,
  clientId: number,
  shift: Shift,
  divisions: readonly number[] | null,
): Promise<Omit<HandoverDigest, 'acknowledgement' | 'previousNote'>> {
  const p: unknown[] = [];
  const own = tenantOf(p, clientId); // $1, named on each table of the queries below
  p.push(shift.start.toISOString(), shift.end.toISOString(), divisions ? [...divisions] : null);
  const EVENT_SCOPE = '($4::int[] is null or e.division_id is null or e.division_id = any($4::int[]))';
  const ROW_SCOPE = (alias: string) => `($4::int[] is null or ${alias}.division_id is null or ${alias}.division_id = any($4::int[]))`;
  const {
    rows: [{ as_of }],
  } = await db.query<{ as_of: Date }>('select now() as as_of');

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
  const alarms: HandoverAlarm[] = open.map((a) => ({
    id: Number(a.event_id),
    priority: Number(a.priority),
    name: a.type_name ?? eventLabel(a.event_code),
    point: a.event_point_name ?? '',
    raisedAt: iso(a.raised_at)!,
    state: a.state,
    acknowledgedBy: a.acknowledged_by ?? null,
    processedAt: iso(a.processed_at),
    notes: notes
      .filter((n) => Number(n.alarm_id) === Number(a.event_id))
      .map((n) => ({ at: iso(n.at)!, actor: n.actor ?? null, action: n.action, note: n.note })),
  }));

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
  const doors: HandoverDoor[] = [];
  for (const d of doorRows) {
    const base = { id: Number(d.id), name: d.name, division: d.division ?? null, detail: null, until: null };
    if (ABNORMAL_STATUSES.includes(d.status)) doors.push({ ...base, kind: 'status', state: d.status, since: iso(d.status_since) });
    if (ABNORMAL_MODES.includes(d.mode)) doors.push({ ...base, kind: 'mode', state: d.mode, since: iso(d.mode_since) });
  }
  const { rows: overrides } = await db.query<any>(
    `select d.id, d.name, dv.name as division, o.name as override, o.mode, o.applied_start_at, o.ends_at
    from door_overrides o join door_override_doors od on od.override_id = o.id join doors d on d.id = od.door_id left join divisions dv on dv.id = d.division_id
    where ${own('o')} and o.applied_start_at is not null and o.applied_end_at is null and ${ROW_SCOPE('d')} and $2::timestamptz is not null and $3::timestamptz is not null
    order by d.name, d.id limit ${LIST_MAX}`,
    p,
  );
  for (const o of overrides)
    doors.push({
      id: Number(o.id),
      name: o.name,
      division: o.division ?? null,
      kind: 'override',
      state: o.mode,
      detail: o.override,
      since: iso(o.applied_start_at),
      until: iso(o.ends_at),
    });

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
  const offline: HandoverOffline[] = [
    ...controllers.map((c) => ({ kind: 'controller', id: Number(c.id), name: c.name, since: iso(c.since) })),
    ...readers.map((r) => ({ kind: 'reader', id: Number(r.id), name: `${r.name} reader`, since: iso(r.at) })),
  ];

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

  return {
    zone: shift.zone,
    start: shift.start.toISOString(),
    end: shift.end.toISOString(),
    asOf: iso(as_of)!,
    alarms: {
      raised: raised.reduce((n, r) => n + Number(r.n), 0),
      processed: Number(processed.n),
      byPriority: raised.map((r) => ({ priority: Number(r.priority), count: Number(r.n) })),
      open: alarms,
    },
    doors,
    shelvings: shelved.map((r) => ({
      id: Number(r.id),
      pointName: r.point_name ?? null,
      reason: r.reason,
      by: r.shelved_by,
      at: iso(r.shelved_at)!,
      until: iso(r.until)!,
      endedAt: iso(r.ended_at),
    })),
    threatLevel: threat
      ? {
          name: threat.name,
          rank: Number(threat.rank),
          mode: threat.mode,
          division: threat.division ?? null,
          since: iso(threat.set_at)!,
          setBy: threat.set_by,
          until: iso(threat.until),
        }
      : null,
    offline,
    visitors: visitors.map((v) => ({
      id: Number(v.id),
      name: name(v.first_name, v.last_name),
      company: v.company ?? null,
      host: v.host_name,
      signedInAt: iso(v.signed_in_at),
    })),
    denials: {
      total: byReason.reduce((n, r) => n + Number(r.n), 0),
      byReason: byReason.map((r) => ({ code: Number(r.event_code), label: eventLabel(r.event_code), count: Number(r.n) })),
      repeated: repeated.map((r) => ({
        credential: r.credential,
        name: name(r.first_name, r.last_name) || null,
        count: Number(r.n),
        doors: (r.doors as string[]).filter((x) => x),
      })),
    },
  };
}

/** The acknowledgement of the shift ending at `end`, and the note left at the one before it. */
async function acknowledgements(db: Db, clientId: number, shift: Shift): Promise<Pick<HandoverDigest, 'acknowledgement' | 'previousNote'>> {
  const params: unknown[] = [shift.end.toISOString()];
  const { rows } = await db.query<any>(
    `select h.id, h.shift_end, h.acknowledged_by, h.acknowledged_at, h.note, u.name from shift_handovers h left join users u on u.username = h.acknowledged_by
    where h.shift_end <= $1 and ${tenant(params, clientId, 'h')} order by h.shift_end desc limit 2`,
    params,
  );
  const mine = rows.find((r) => new Date(r.shift_end).getTime() === shift.end.getTime());
  const before = rows.find((r) => new Date(r.shift_end).getTime() < shift.end.getTime() && r.note);
  return {
    acknowledgement: mine
      ? { id: Number(mine.id), by: mine.acknowledged_by, name: mine.name || mine.acknowledged_by, at: iso(mine.acknowledged_at)!, note: mine.note ?? null }
      : null,
    previousNote: before
      ? { by: before.acknowledged_by, name: before.name || before.acknowledged_by, at: iso(before.acknowledged_at)!, note: before.note }
      : null,
  };
}

export async function fullDigest(db: Db, clientId: number, shift: Shift, divisions: readonly number[] | null): Promise<HandoverDigest> {
  return { ...(await handoverDigest(db, clientId, shift, divisions)), ...(await acknowledgements(db, clientId, shift)) };
}

/** The digest as the lines of a scheduled report (one per item, the shift's instants first). */
export const HANDOVER_COLUMNS = ['shiftStart', 'shiftEnd', 'section', 'item', 'state', 'since', 'detail'] as const;
export function handoverLines(d: HandoverDigest): unknown[][] {
  const line = (section: string, item: string, state: string | number | null, since: string | null, detail: string | null) => [
    d.start,
    d.end,
    section,
    item,
    state,
    since,
    detail,
  ];
  return [
    line('alarms', 'Raised', d.alarms.raised, null, d.alarms.byPriority.map((p) => `P${p.priority}: ${p.count}`).join(', ') || null),
    line('alarms', 'Processed', d.alarms.processed, null, null),
    ...d.alarms.open.map((a) =>
      line(
        'open alarm',
        `P${a.priority} ${a.name} at ${a.point}`,
        a.state,
        a.raisedAt,
        [a.acknowledgedBy ? `acknowledged by ${a.acknowledgedBy}` : null, ...a.notes.map((n) => `${n.actor ?? 'system'}: ${n.note}`)]
          .filter((x) => x)
          .join('; ') || null,
      ),
    ),
    ...d.doors.map((x) =>
      line('door', x.name, `${x.kind}: ${x.state}`, x.since, [x.detail, x.until ? `until ${x.until}` : null].filter((y) => y).join(', ') || null),
    ),
    ...(d.threatLevel
      ? [
          line(
            'threat level',
            d.threatLevel.name,
            d.threatLevel.mode,
            d.threatLevel.since,
            `set by ${d.threatLevel.setBy}${d.threatLevel.division ? ` in ${d.threatLevel.division}` : ''}`,
          ),
        ]
      : []),
    ...d.offline.map((x) => line('offline', x.name, x.kind, x.since, null)),
    ...d.visitors.map((v) => line('visitor', v.name, 'on site', v.signedInAt, `visiting ${v.host}${v.company ? `, ${v.company}` : ''}`)),
    line('denials', 'Denied swipes', d.denials.total, null, d.denials.byReason.map((r) => `${r.label}: ${r.count}`).join('; ') || null),
    ...d.denials.repeated.map((r) =>
      line('repeated denials', r.name ? `${r.credential} (${r.name})` : r.credential, r.count, null, r.doors.join(', ') || null),
    ),
    ...(d.acknowledgement ? [line('acknowledged', d.acknowledgement.name, 'acknowledged', d.acknowledgement.at, d.acknowledgement.note)] : []),
  ];
}

const endOf = (raw: string, field = 'end') => {
  const end = new Date(raw);
  return {
    end,
    bad: () => new HttpError(400, 'Validation failed', [{ field, message: 'must be the end of one of the client\u2019s shifts, not in the future' }]),
  };
};

export function handoverRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const view = { config: { privileges: [PRIV.handover.view] } };
  const scope = (req: Parameters<typeof principal>[0]) => eventDivisions(principal(req), [PRIV.handover.view]);

  app.get(`${HANDOVER_API}/latest`, view, async (req): Promise<HandoverDigest> => {
    const clientId = clientOf(req);
    const shift = await shiftOf(db, clientId);
    if (!shift) throw new HttpError(404, 'No shift has ended yet');
    return fullDigest(db, clientId, shift, await scope(req));
  });

  app.get(HANDOVER_API, view, async (req): Promise<HandoverDigest> => {
    const clientId = clientOf(req);
    const q = query(req.query, HandoverQuery, []);
    const { end, bad } = endOf(q.end);
    const shift = await shiftOf(db, clientId, end);
    if (!shift) throw bad();
    return fullDigest(db, clientId, shift, await scope(req));
  });

  app.get(`${HANDOVER_API}/history`, view, async (req): Promise<HandoverHistory> => {
    const clientId = clientOf(req);
    const params: unknown[] = [];
    const { rows } = await db.query<any>(
      `select h.id, h.shift_start, h.shift_end, h.acknowledged_by, h.acknowledged_at, h.note, u.name,
        jsonb_array_length(coalesce(h.digest -> 'alarms' -> 'open', '[]'::jsonb)) as open
      from shift_handovers h left join users u on u.username = h.acknowledged_by where ${tenant(params, clientId, 'h')} order by h.shift_end desc limit 100`,
      params,
    );
    return {
      items: rows.map((r) => ({
        id: Number(r.id),
        start: iso(r.shift_start)!,
        end: iso(r.shift_end)!,
        by: r.acknowledged_by,
        name: r.name || r.acknowledged_by,
        at: iso(r.acknowledged_at)!,
        note: r.note ?? null,
        open: Number(r.open),
      })),
    };
  });

  app.get(`${HANDOVER_API}/:id`, view, async (req): Promise<HandoverDigest> => {
    const clientId = clientOf(req);
    const id = idParam(req, 'Handover');
    const params: unknown[] = [id];
    const {
      rows: [h],
    } = await db.query<any>(`select digest from shift_handovers where id = $1 and ${tenant(params, clientId)}`, params);
    if (!h) throw new HttpError(404, 'Handover not found');
    const digest = (typeof h.digest === 'string' ? JSON.parse(h.digest) : h.digest) as HandoverDigest;
    const shift = { zone: digest.zone, start: new Date(digest.start), end: new Date(digest.end) };
    return { ...digest, ...(await acknowledgements(db, clientId, shift)) };
  });

  app.post(`${HANDOVER_API}/acknowledge`, { config: { privileges: [PRIV.handover.acknowledge], touches: 'client' } }, async (req) => {
    const clientId = clientOf(req);
    const b = body(req.body, AcknowledgeHandoverBody);
    const { end, bad } = endOf(b.end);
    const shift = await shiftOf(db, clientId, end);
    if (!shift) throw bad();
    const note = b.note?.trim() ? b.note.trim() : null;
    const me = principal(req).username;
    const digest = await handoverDigest(db, clientId, shift, await eventDivisions(principal(req), [PRIV.handover.acknowledge]));
    const id = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number }>(
        `insert into shift_handovers (client_id, shift_start, shift_end, acknowledged_by, note, digest)
        values ($1, $2, $3, $4, $5, $6) on conflict (client_id, shift_end) do nothing returning id`,
        [clientId, shift.start.toISOString(), shift.end.toISOString(), me, note, JSON.stringify(digest)],
      );
      if (!rows[0]) return null;
      await audit(tx, req, {
        clientId,
        action: 'acknowledge',
        entity: 'shift handover',
        entityId: rows[0].id,
        before: null,
        after: { shiftStart: shift.start.toISOString(), shiftEnd: shift.end.toISOString(), note, openAlarms: digest.alarms.open.length },
      });
      return Number(rows[0].id);
    });
    if (id === null) {
      const ackParams: unknown[] = [shift.end.toISOString()];
      const {
        rows: [h],
      } = await db.query<any>(
        `select h.acknowledged_by, h.acknowledged_at, u.name from shift_handovers h left join users u on u.username = h.acknowledged_by
        where h.shift_end = $1 and ${tenant(ackParams, clientId, 'h')}`,
        ackParams,
      );
      throw new HttpError(
        409,
        fill('This handover was already acknowledged by {name} at {at}', { name: h?.name || h?.acknowledged_by || '', at: iso(h?.acknowledged_at) ?? '' }),
      );
    }
    return { id, acknowledged: true };
  });
}
