// The access index per tenant (issue 12): everything decide() needs of one tenant's configuration, built from the
// database once at start and again only for the tenant whose configuration changed (the catalogue's change notices,
// debounced), never read per swipe. A swipe that arrives while a change is pending waits for that rebuild, so the
// next swipe after a saved change always obeys it.
import type { Db } from '../db/db';
import { allClientIds, configRows, groupMemberRows, peopleRows, siteDoorIds } from '../db/queries/accessIndex';
import type { CardFormat } from './cardFormat';
import type { AccessGroupFact, AccessIndex, CredentialFact, DoorFact, DoorMode, IdentityFact, InterlockFact, ThreatFact, ZoneFact } from '../../access/engine';
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

/** The people part of an index as it is made: maps of its own (an index handed out is never changed: a patch copies them). */
interface People {
  credentials: Map<string, CredentialFact>;
  identities: Map<number, IdentityFact>;
  groupsOf: Map<number, number[]>;
}
/** A copy of an index's people part to patch (copying 200,000 identities' maps is tens of milliseconds; reading them again, seconds). */
const peopleOf = (index: AccessIndex): People => ({
  credentials: new Map(index.credentials),
  identities: new Map(index.identities),
  groupsOf: new Map(index.groupsOf as ReadonlyMap<number, number[]>),
});
type PeopleRows = Awaited<ReturnType<typeof peopleRows>>;

/** Reads one tenant's people and configuration into an index (a dozen queries, whatever the number of swipes: server/db/queries/accessIndex.ts). */
export async function buildIndex(db: Db, clientId: number): Promise<AccessIndex> {
  return { ...peopleFacts(await peopleRows(db, clientId)), ...(await configFacts(db, clientId)) };
}

/** The people part of an index from their rows. */
function peopleFacts(rows: PeopleRows): People {
  const people: People = { credentials: new Map(), identities: new Map(), groupsOf: new Map() };
  addPeople(people, rows);
  return people;
}

/** Adds people's rows to the people part (their earlier facts taken out first: patchPeople). */
function addPeople(into: People, { creds, people, members }: PeopleRows): void {
  const pins = new Map<number, string>();
  for (const c of creds) {
    if (c.type === 'pin') {
      pins.set(c.identity_id, c.number);
      continue;
    }
    into.credentials.set(c.number, {
      id: c.id,
      identityId: c.identity_id,
      number: c.number,
      facilityCode: c.facility_code,
      status: c.status,
      validFrom: c.valid_from,
      validTo: c.valid_to,
    });
  }
  for (const p of people)
    into.identities.set(p.id, { id: p.id, name: p.name, status: p.status, validFrom: p.valid_from, validTo: p.valid_to, pin: pins.get(p.id) ?? null });
  const added = new Map<number, number[]>();
  for (const m of members) {
    const l = added.get(m.identity_id);
    if (l) l.push(m.access_group_id);
    else added.set(m.identity_id, [m.access_group_id]);
  }
  // a list of the map is replaced, never pushed to: a copied map shares its lists with the index handed out
  for (const [id, groups] of added) into.groupsOf.set(id, [...(into.groupsOf.get(id) ?? []), ...groups]);
}

/** The people part with identities `ids` read again: their identity, credentials and groups as the database has them now (gone when deleted). */
async function patchPeople(db: Db, clientId: number, people: People, ids: ReadonlySet<number>): Promise<void> {
  const rows = await peopleRows(db, clientId, [...ids]);
  for (const [number, c] of people.credentials) if (ids.has(c.identityId)) people.credentials.delete(number);
  for (const id of ids) {
    people.identities.delete(id);
    people.groupsOf.delete(id);
  }
  addPeople(people, rows);
}

/** The people part with access groups `groupIds`' members read again (members changed from the group's side). */
async function patchGroups(db: Db, clientId: number, people: People, groupIds: ReadonlySet<number>): Promise<void> {
  const members = await groupMemberRows(db, clientId, [...groupIds]);
  for (const [identityId, groups] of people.groupsOf) {
    if (!groups.some((g) => groupIds.has(g))) continue;
    const kept = groups.filter((g) => !groupIds.has(g));
    if (kept.length) people.groupsOf.set(identityId, kept);
    else people.groupsOf.delete(identityId);
  }
  addPeople(people, { creds: [], people: [], members });
}

/** Reads one tenant's configuration (everything of the index but its people: a few hundred rows) into its part of an index. */
async function configFacts(db: Db, clientId: number): Promise<Omit<AccessIndex, keyof People>> {
  const { client, doorRows, ilDoors, groups, groupDoors, schedules, windows, specials, dates, zones, formats, parity, overrides, threatRow } = await configRows(
    db,
    clientId,
  );
  const overridesOf = group(overrides, (x) => x.door_id);
  let threatDoors: Set<number> | null = null;
  if (threatRow && threatRow.division_id !== null) {
    threatDoors = new Set(await siteDoorIds(db, clientId, threatRow.division_id));
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
    doors,
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

/** What of a tenant's index a change made stale. */
interface Stale {
  everything: boolean;
  config: boolean;
  identities: Set<number>;
  groups: Set<number>;
}
const EVERYTHING: Stale = { everything: true, config: true, identities: new Set(), groups: new Set() };
/** Beyond this many identities changed in one burst (a bulk delete) their people are read again whole. */
export const PATCH_IDENTITIES_MAX = 500;

/** `before` with `change` added (no change named: everything). */
function staleAfter(before: Stale | undefined, change: { resource: string; id?: number } | undefined): Stale {
  const s: Stale = before ?? { everything: false, config: false, identities: new Set(), groups: new Set() };
  if (s.everything) return s;
  const id = change?.id !== undefined && change.id > 0 ? change.id : null;
  if (!change || (change.resource === 'identities' && id === null) || (change.resource === 'accessGroups' && id === null)) return EVERYTHING;
  if (change.resource === 'identities') s.identities.add(id!);
  else {
    s.config = true;
    if (change.resource === 'accessGroups') s.groups.add(id!);
  }
  return s.identities.size > PATCH_IDENTITIES_MAX ? EVERYTHING : s;
}

/** `base` with what `stale` names read again: the configuration (a few hundred rows) and the people changed, never the tenant's 200,000 identities for one. */
async function patchIndex(db: Db, clientId: number, base: AccessIndex, stale: Stale): Promise<AccessIndex> {
  const config = stale.config ? await configFacts(db, clientId) : base;
  if (!stale.identities.size && !stale.groups.size)
    return { ...base, ...config, credentials: base.credentials, identities: base.identities, groupsOf: base.groupsOf };
  const people = peopleOf(base);
  if (stale.identities.size) await patchPeople(db, clientId, people, stale.identities);
  if (stale.groups.size) await patchGroups(db, clientId, people, stale.groups);
  return { ...base, ...config, ...people };
}

export interface AccessIndexes {
  /** The tenant's index: the cached one, or (first use, or a change pending) built now. */
  get(clientId: number): Promise<AccessIndex>;
  /**
   * A change notice: rebuild this tenant's index after `debounceMs` (a swipe before then rebuilds at once). What is read
   * again follows what changed: an identity (`identities` with its id) its own rows, an access group its members and
   * the configuration, any other resource the configuration alone; with no resource, or an identity change without
   * an id (a batch import), everything.
   */
  changed(clientId: number, change?: { resource: string; id?: number }): void;
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
  /** what of each dirty tenant is to be read again */
  const stale = new Map<number, Stale>();
  let builds = 0;
  const listeners = new Set<(clientId: number, index: AccessIndex) => void>();

  function rebuild(clientId: number): Promise<AccessIndex> {
    const pending = dirty.get(clientId);
    if (pending) clearTimeout(pending);
    dirty.delete(clientId);
    const what = stale.get(clientId) ?? EVERYTHING;
    stale.delete(clientId);
    // a build already under way may have read before the change: chain a fresh one after it, from what it built
    const before = building.get(clientId) ?? Promise.resolve(null);
    const p = before
      .catch(() => null)
      .then((built) => {
        const base = built ?? cache.get(clientId);
        return base && !what.everything ? patchIndex(db, clientId, base, what) : buildIndex(db, clientId);
      })
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
      // a read after a change sees it: while the change waits for its debounce, it is built now; once that build is
      // under way, the read waits for it (the cached index is from before the change)
      if (dirty.has(clientId)) return rebuild(clientId);
      return building.get(clientId) ?? cache.get(clientId) ?? rebuild(clientId);
    },
    changed(clientId, change) {
      stale.set(clientId, staleAfter(stale.get(clientId), change));
      const pending = dirty.get(clientId);
      if (pending) clearTimeout(pending);
      const timer = setTimeout(() => {
        void rebuild(clientId).catch((e) => opts.log?.(`access index ${clientId}: ${e}`));
      }, debounceMs);
      (timer as { unref?: () => void }).unref?.();
      dirty.set(clientId, timer);
    },
    async loadAll() {
      for (const id of await allClientIds(db)) await rebuild(id);
    },
    stop() {
      for (const t of dirty.values()) if (t) clearTimeout(t);
      dirty.clear();
    },
  };
}
