// The access index per tenant (issue 12): everything decide() needs of one tenant's configuration, built from the
// database once at start and again only for the tenant whose configuration changed (the catalogue's change notices,
// debounced), never read per swipe. A swipe that arrives while a change is pending waits for that rebuild, so the
// next swipe after a saved change always obeys it.
import type { Db } from '../db/db';
import { tenant } from '../db/tenant';
import type { CardFormat } from './cardFormat';
import type {
  AccessGroupFact,
  AccessIndex,
  CredentialFact,
  DoorFact,
  DoorMode,
  IdentityFact,
  InterlockFact,
  OverrideFact,
  ThreatFact,
  ZoneFact,
} from '../../access/engine';
import { SpecialCalendar, type DayWindow, type Schedule, type SpecialDate, type WeeklyWindow } from '../../access/schedule';

/** How long one dynamic QR code is current. */
export const QR_PERIOD_S = 30;
/** Change notices of these resources rebuild the tenant's index. */
export const ACCESS_RESOURCES = [
  'identities',
  'doors',
  'schedules',
  'specialDates',
  'accessZones',
  'accessGroups',
  'interlocks',
  'cardFormats',
  'clients',
  'overrides',
  'threatLevels',
] as const;

const group = <T, K>(rows: readonly T[], key: (r: T) => K): Map<K, T[]> => {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const l = out.get(k);
    if (l) l.push(r);
    else out.set(k, [r]);
  }
  return out;
};

/** Reads one tenant's configuration into an index (a dozen queries, whatever the number of swipes). */
export async function buildIndex(db: Db, clientId: number): Promise<AccessIndex> {
  /** One query of the tenant's rows: `mine(alias)` is its tenant condition (tenant(), server/db/tenant.ts). */
  const q = async <T>(sql: (mine: (alias?: string) => string) => string) => {
    const params: unknown[] = [];
    return (
      await db.query<T>(
        sql((alias) => tenant(params, clientId, alias)),
        params,
      )
    ).rows;
  };
  const [client] = (await db.query<{ timezone: string }>('select timezone from clients where id = $1', [clientId])).rows;
  const creds = await q<{
    id: number;
    identity_id: number;
    type: string;
    number: string;
    facility_code: number | null;
    status: string;
    valid_from: string | null;
    valid_to: string | null;
  }>((mine) => `select id, identity_id, type, number, facility_code, status, valid_from::text, valid_to::text from credentials where ${mine()} order by id`);
  const people = await q<{ id: number; name: string; status: string; valid_from: string | null; valid_to: string | null }>(
    (mine) => `select id, first_name || ' ' || last_name as name, status, valid_from::text, valid_to::text from identities where ${mine()}`,
  );
  const doorRows = await q<{
    id: number;
    name: string;
    mode: string;
    entry_zone_id: number | null;
    exit_zone_id: number | null;
    card_format_id: number | null;
    qr_secret: string | null;
  }>((mine) => `select id, name, mode, entry_zone_id, exit_zone_id, card_format_id, qr_secret from doors where ${mine()}`);
  const ilDoors = await q<{ interlock_id: number; door_id: number; name: string }>(
    (mine) => `select d.interlock_id, d.door_id, i.name from interlock_doors d join interlocks i on i.id = d.interlock_id where ${mine('i')}`,
  );
  const groups = await q<{ id: number; name: string }>((mine) => `select id, name from access_groups where ${mine()}`);
  const groupDoors = await q<{ access_group_id: number; door_id: number; schedule_id: number }>(
    (mine) => `select access_group_id, door_id, schedule_id from access_group_doors where ${mine()}`,
  );
  const members = await q<{ access_group_id: number; identity_id: number }>(
    (mine) => `select m.access_group_id, m.identity_id from access_group_members m join access_groups g on g.id = m.access_group_id where ${mine('g')}`,
  );
  const schedules = await q<{ id: number; name: string }>((mine) => `select id, name from schedules where ${mine()}`);
  const windows = await q<{ schedule_id: number; day: string; start_time: string; end_time: string }>(
    (mine) => `select schedule_id, day, start_time, end_time from schedule_windows where ${mine()}`,
  );
  const specials = await q<{ schedule_id: number; kind: string; start_time: string; end_time: string }>(
    (mine) => `select schedule_id, kind, start_time, end_time from schedule_special_windows where ${mine()} order by id`,
  );
  const dates = await q<{ date: string; yearly: boolean; kind: string; name: string }>(
    (mine) => `select date::text, yearly, kind, name from special_dates where ${mine()}`,
  );
  const zones = await q<{ id: number; name: string; anti_passback: string; forgive_minutes: number }>(
    (mine) => `select id, name, anti_passback, forgive_minutes from access_zones where ${mine()}`,
  );
  const formats = await q<{
    id: number;
    name: string;
    bits: number;
    facility_start: number | null;
    facility_length: number | null;
    card_start: number;
    card_length: number;
  }>((mine) => `select id, name, bits, facility_start, facility_length, card_start, card_length from card_formats where ${mine()}`);
  const parity = await q<{ card_format_id: number; bit: number; type: 'even' | 'odd'; over_start: number; over_length: number }>(
    (mine) => `select card_format_id, bit, type, over_start, over_length from card_format_parity where ${mine()} order by id`,
  );

  // overrides of the last month and the future (an explainer or a simulated clock may ask about the recent past)
  const overrides = await q<{ id: number; name: string; mode: OverrideFact['mode']; from: number; to: number; door_id: number }>(
    (
      mine,
    ) => `select o.id, o.name, o.mode, (extract(epoch from o.starts_at) * 1000)::float8 as "from", (extract(epoch from o.ends_at) * 1000)::float8 as "to", d.door_id
       from door_overrides o join door_override_doors d on d.override_id = o.id where ${mine('o')} and o.ends_at > now() - interval '31 days'`,
  );
  const overridesOf = group(overrides, (x) => x.door_id);
  // the threat level in force (migration 096): the doors of its site (a division and those inside it) or every door
  const [threatRow] = await q<{
    level_id: number;
    name: string;
    rank: number;
    mode: ThreatFact['mode'];
    from: number;
    until: number | null;
    division_id: number | null;
    exempt: number[] | null;
  }>(
    (mine) => `select s.level_id, l.name, l.rank, l.mode, (extract(epoch from s.set_at) * 1000)::float8 as "from",
            (extract(epoch from s.until) * 1000)::float8 as until, s.division_id,
            (select array_agg(e.access_group_id) from threat_level_exempt_groups e where e.threat_level_id = l.id) as exempt
       from threat_level_state s join threat_levels l on l.id = s.level_id where ${mine('s')}`,
  );
  let threatDoors: Set<number> | null = null;
  if (threatRow && threatRow.division_id !== null) {
    const threatParams: unknown[] = [threatRow.division_id];
    threatDoors = new Set(
      (
        await db.query<{ id: number }>(
          `with recursive site(id) as (select $1::int union select d.id from divisions d join site on d.parent_id = site.id)
      select id from doors where ${tenant(threatParams, clientId)} and division_id in (select id from site)`,
          threatParams,
        )
      ).rows.map((r) => Number(r.id)),
    );
  }
  const threat: ThreatFact | null = threatRow
    ? {
        levelId: Number(threatRow.level_id),
        name: threatRow.name,
        rank: Number(threatRow.rank),
        mode: threatRow.mode,
        from: Number(threatRow.from),
        until: threatRow.until === null ? null : Number(threatRow.until),
        exempt: (threatRow.exempt ?? []).map(Number),
      }
    : null;

  const pins = new Map<number, string>();
  const credentials = new Map<string, CredentialFact>();
  for (const c of creds) {
    if (c.type === 'pin') {
      pins.set(c.identity_id, c.number);
      continue;
    }
    credentials.set(c.number, {
      id: c.id,
      identityId: c.identity_id,
      number: c.number,
      facilityCode: c.facility_code,
      status: c.status,
      validFrom: c.valid_from,
      validTo: c.valid_to,
    });
  }
  const identities = new Map<number, IdentityFact>(
    people.map((p) => [p.id, { id: p.id, name: p.name, status: p.status, validFrom: p.valid_from, validTo: p.valid_to, pin: pins.get(p.id) ?? null }]),
  );
  const ilOf = group(ilDoors, (x) => x.door_id);
  const doors = new Map<number, DoorFact>(
    doorRows.map((d) => [
      d.id,
      {
        id: d.id,
        name: d.name,
        mode: d.mode as DoorMode,
        formatIds: d.card_format_id === null ? [] : [d.card_format_id],
        entryZoneId: d.entry_zone_id,
        exitZoneId: d.exit_zone_id,
        interlockIds: (ilOf.get(d.id) ?? []).map((x) => x.interlock_id),
        qrSecret: d.qr_secret,
        overrides: (overridesOf.get(d.id) ?? []).map((o) => ({ id: o.id, name: o.name, mode: o.mode, from: Number(o.from), to: Number(o.to) })),
        threat: threat && (threatDoors === null || threatDoors.has(d.id)) ? threat : null,
      },
    ]),
  );
  const interlocks = new Map<number, InterlockFact>(
    [...group(ilDoors, (x) => x.interlock_id)].map(([id, list]) => [id, { id, name: list[0].name, doorIds: list.map((x) => x.door_id) }]),
  );
  const doorsOf = group(groupDoors, (x) => x.access_group_id);
  const accessGroups = new Map<number, AccessGroupFact>(
    groups.map((g) => [g.id, { id: g.id, name: g.name, doors: new Map((doorsOf.get(g.id) ?? []).map((x) => [x.door_id, x.schedule_id])) }]),
  );
  const groupsOf = new Map<number, number[]>();
  for (const m of members) {
    const l = groupsOf.get(m.identity_id);
    if (l) l.push(m.access_group_id);
    else groupsOf.set(m.identity_id, [m.access_group_id]);
  }
  const windowsOf = group(windows, (x) => x.schedule_id);
  const specialsOf = group(specials, (x) => x.schedule_id);
  const scheduleMap = new Map<number, Schedule>(
    schedules.map((s) => {
      const special: Record<string, DayWindow[]> = {};
      for (const w of specialsOf.get(s.id) ?? []) (special[w.kind] ??= []).push({ start: w.start_time, end: w.end_time });
      const weekly: WeeklyWindow[] = (windowsOf.get(s.id) ?? []).map((w) => ({ day: Number(w.day), start: w.start_time, end: w.end_time }));
      return [s.id, { id: s.id, name: s.name, windows: weekly, special }];
    }),
  );
  const parityOf = group(parity, (x) => x.card_format_id);
  const formatMap = new Map<number, CardFormat>(
    formats.map((f) => [
      f.id,
      {
        id: f.id,
        name: f.name,
        bits: f.bits,
        facility: f.facility_start !== null && f.facility_length !== null ? { start: f.facility_start, length: f.facility_length } : null,
        card: { start: f.card_start, length: f.card_length },
        parity: (parityOf.get(f.id) ?? []).map((p) => ({ bit: p.bit, type: p.type, over: { start: p.over_start, length: p.over_length } })),
      },
    ]),
  );
  return {
    timeZone: client?.timezone ?? 'UTC',
    credentials,
    identities,
    doors,
    groupsOf,
    groups: accessGroups,
    schedules: scheduleMap,
    calendar: new SpecialCalendar(dates.map((d): SpecialDate => ({ date: d.date, yearly: d.yearly, kind: d.kind, name: d.name }))),
    zones: new Map<number, ZoneFact>(
      zones.map((z) => [z.id, { id: z.id, name: z.name, antiPassback: z.anti_passback as ZoneFact['antiPassback'], forgiveMinutes: z.forgive_minutes }]),
    ),
    interlocks,
    formats: formatMap,
    qrPeriodS: QR_PERIOD_S,
  };
}

export interface AccessIndexes {
  /** The tenant's index: the cached one, or (first use, or a change pending) built now. */
  get(clientId: number): Promise<AccessIndex>;
  /** A change notice: rebuild this tenant's index after `debounceMs` (a swipe before then rebuilds at once). */
  changed(clientId: number): void;
  /** Build every tenant's index (at start). */
  loadAll(): Promise<void>;
  /** How many times an index was built (tests: one per change burst, not one per swipe). */
  readonly builds: number;
  /** Told of every index built, after it is cached (Gatehouse Edge sends its controllers their new snapshots). */
  onBuilt(listener: (clientId: number, index: AccessIndex) => void): () => void;
  stop(): void;
}

export function createAccessIndexes(db: Db, opts: { debounceMs?: number; log?: (m: string) => void } = {}): AccessIndexes {
  const debounceMs = opts.debounceMs ?? 200;
  const cache = new Map<number, AccessIndex>();
  const building = new Map<number, Promise<AccessIndex>>();
  /** tenants with a change newer than their cached index, and the timer of their debounced rebuild */
  const dirty = new Map<number, ReturnType<typeof setTimeout> | null>();
  let builds = 0;
  const listeners = new Set<(clientId: number, index: AccessIndex) => void>();

  function rebuild(clientId: number): Promise<AccessIndex> {
    const pending = dirty.get(clientId);
    if (pending) clearTimeout(pending);
    dirty.delete(clientId);
    // a build already under way may have read before the change: chain a fresh one after it
    const before = building.get(clientId) ?? Promise.resolve(null);
    const p = before
      .catch(() => null)
      .then(() => buildIndex(db, clientId))
      .then((index) => {
        builds++;
        cache.set(clientId, index);
        for (const l of listeners) l(clientId, index);
        return index;
      })
      .finally(() => {
        if (building.get(clientId) === p) building.delete(clientId);
      });
    building.set(clientId, p);
    return p;
  }

  return {
    get builds() {
      return builds;
    },
    onBuilt(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async get(clientId) {
      if (dirty.has(clientId)) return rebuild(clientId);
      const cached = cache.get(clientId);
      if (cached) return cached;
      return building.get(clientId) ?? rebuild(clientId);
    },
    changed(clientId) {
      const pending = dirty.get(clientId);
      if (pending) clearTimeout(pending);
      const timer = setTimeout(() => {
        void rebuild(clientId).catch((e) => opts.log?.(`access index ${clientId}: ${e}`));
      }, debounceMs);
      (timer as { unref?: () => void }).unref?.();
      dirty.set(clientId, timer);
    },
    async loadAll() {
      const { rows } = await db.query<{ id: number }>('select id from clients order by id');
      for (const r of rows) await rebuild(r.id);
    },
    stop() {
      for (const t of dirty.values()) if (t) clearTimeout(t);
      dirty.clear();
    },
  };
}
