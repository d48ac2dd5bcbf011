// The access index per tenant (issue 12): everything decide() needs of one tenant's configuration, built from the
// database once at start and again only for the tenant whose configuration changed (the catalogue's change notices,
// debounced), never read per swipe. A swipe that arrives while a change is pending waits for that rebuild, so the
// next swipe after a saved change always obeys it.
import type { Db } from '../db/db';
import { allClientIds, configRows, groupMemberRows, peopleRows, siteDoorIds } from '../db/queries/accessIndex';
import type { CardFormat } from './cardFormat';
import { folded, People, type PeopleBase } from './people';
import type { AccessGroupFact, AccessIndex, CredentialFact, DoorFact, DoorMode, InterlockFact, ThreatFact, ZoneFact } from '../../access/engine';
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

type Config = Omit<AccessIndex, 'credentials' | 'identities' | 'groupsOf'>;

/** The people of each index made here (an index's people maps are theirs: people.ts). */
const peopleOfIndex = new WeakMap<AccessIndex, People>();
const indexOf = (config: Config, people: People): AccessIndex => {
  const index: AccessIndex = { ...config, credentials: people.credentials, identities: people.identities, groupsOf: people.groupsOf };
  peopleOfIndex.set(index, people);
  return index;
};
/** The people of `index` (of one made elsewhere, a copy of its maps). */
const peopleOf = (index: AccessIndex): People => peopleOfIndex.get(index) ?? People.copied(index);

/**
 * The credentials of identities `ids` in `index` (Gatehouse Edge's snapshot cuts those of the people it holds,
 * server/edge/snapshot.ts): looked up by identity in the people's base, then the changed ones laid over it, never a
 * scan of the tenant.
 */
export function cardsOfIdentities(index: AccessIndex, ids: Iterable<number>): Map<number, CredentialFact[]> {
  const { base, credentials } = peopleOf(index);
  const out = new Map<number, CredentialFact[]>();
  const add = (c: CredentialFact) => {
    const list = out.get(c.identityId);
    if (list) list.push(c);
    else out.set(c.identityId, [c]);
  };
  const want = new Set(ids);
  for (const id of want)
    for (const number of base.cardsOf.get(id) ?? []) {
      if (credentials.changes.has(number)) continue; // changed since the base: below
      const c = base.credentials.get(number);
      if (c?.identityId === id) add(c);
    }
  for (const c of credentials.changes.values()) if (c && want.has(c.identityId)) add(c);
  return out;
}

/** The identities of `people` with any of access groups `groupIds`: looked up by group in the base, then the changed. */
function membersIn(people: People, groupIds: ReadonlySet<number>): Set<number> {
  const out = new Set<number>();
  for (const g of groupIds) for (const id of people.base.membersOf.get(g) ?? []) if (!people.groupsOf.changes.has(id)) out.add(id);
  for (const [id, groups] of people.groupsOf.changes) if (groups?.some((g) => groupIds.has(g))) out.add(id);
  return out;
}
/** The identities of `index` with any of access groups `groupIds` (looked up, not scanned). */
export const membersOfGroups = (index: AccessIndex, groupIds: ReadonlySet<number>) => membersIn(peopleOf(index), groupIds);

/** Reads one tenant's people and configuration into an index (a dozen queries, whatever the number of swipes: server/db/queries/accessIndex.ts). */
export async function buildIndex(db: Db, clientId: number): Promise<AccessIndex> {
  const people = People.of(await peopleRows(db, clientId));
  return indexOf(await configFacts(db, clientId), people);
}

/** Reads one tenant's configuration (everything of the index but its people: a few hundred rows) into its part of an index. */
async function configFacts(db: Db, clientId: number): Promise<Config> {
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

/**
 * `base` with what `stale` names read again: the configuration (a few hundred rows) and the people changed, never the
 * tenant's 200,000 identities for one. Their entries are laid over the people's shared maps (people.ts), which are
 * neither copied nor looked through: `touched` is the entries that cost. `current` gives the base's people on the
 * freshest base folded (the fold's slices run between the reads).
 */
async function patchIndex(
  db: Db,
  clientId: number,
  base: AccessIndex,
  stale: Stale,
  current: (people: People) => People,
): Promise<{ index: AccessIndex; touched: number; changed: Set<number> }> {
  const config = stale.config ? await configFacts(db, clientId) : base;
  if (!stale.identities.size && !stale.groups.size) return { index: indexOf(config, peopleOf(base)), touched: 0, changed: new Set() };
  const rows = stale.identities.size ? await peopleRows(db, clientId, [...stale.identities]) : null;
  const members = stale.groups.size ? await groupMemberRows(db, clientId, [...stale.groups]) : null;
  let people = current(peopleOf(base));
  let touched = 0;
  const changed = new Set(stale.identities);
  if (rows) ({ people, touched } = people.withIdentities(stale.identities, rows));
  if (members) {
    // whose groups it may change: the groups' members before and now
    for (const id of membersIn(people, stale.groups)) changed.add(id);
    for (const m of members) changed.add(m.identity_id);
    const patched = people.withGroups(stale.groups, members);
    people = patched.people;
    touched += patched.touched;
  }
  return { index: indexOf(config, people), touched, changed };
}

/** Each index's number, in the order built (changedSince walks from one to another). */
const versionOf = new WeakMap<AccessIndex, number>();
let versions = 0;
/** How many patched builds of a tenant changedSince can walk back over. */
const STEPS_KEPT = 1_024;

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
  /**
   * Map entries the people's changes looked at or copied (tests: an identity's change costs what it changed, not the
   * tenant's size).
   */
  readonly touched: number;
  /** How many times a tenant's changed people were folded into a fresh base (tests). */
  readonly folds: number;
  /**
   * The identities whose people entries (identity, credentials, access groups) may differ between `older` and `newer`,
   * two indexes of the tenant, `newer` patched from `older` build after build (Gatehouse Edge cuts its snapshots again
   * for those alone); null when not known: a full build between them, or more than STEPS_KEPT builds apart.
   */
  changedSince(clientId: number, newer: AccessIndex, older: AccessIndex): Set<number> | null;
  /** Told of every index built, after it is cached (Gatehouse Edge sends its controllers their new snapshots). */
  onBuilt(listener: (clientId: number, index: AccessIndex) => void): () => void;
  stop(): void;
}

/**
 * Past this many entries changed over a tenant's people maps, they are folded into a fresh base (people.ts). Each
 * change copies the changes laid over the base, and a fold copies the base's shards they touch (about 30 entries
 * each): folding early keeps both small (at 2,048, before the base was sharded, the changes' copies made most of the
 * garbage collections over 2,000 changes).
 */
export const FOLD_AT = 256;

/**
 * `foldAt`: FOLD_AT unless told (tests). A fold copies the base's shards the changes touch (at 256 changes a few
 * thousand entries), in slices with the event loop free between them; until the next change it is not used.
 */
export function createAccessIndexes(db: Db, opts: { debounceMs?: number; foldAt?: number; log?: (m: string) => void } = {}): AccessIndexes {
  const debounceMs = opts.debounceMs ?? 200;
  const foldAt = opts.foldAt ?? FOLD_AT;
  const cache = new Map<number, AccessIndex>();
  const building = new Map<number, Promise<AccessIndex>>();
  /** tenants with a change newer than their cached index, and the timer of their debounced rebuild */
  const dirty = new Map<number, ReturnType<typeof setTimeout> | null>();
  /** what of each dirty tenant is to be read again */
  const stale = new Map<number, Stale>();
  let builds = 0;
  let touched = 0;
  let folds = 0;
  let stopped = false;
  /** per tenant, the fold under way or done: the people it folds, then their fresh base */
  const folding = new Map<number, { from: People; base: PeopleBase | null }>();
  const listeners = new Set<(clientId: number, index: AccessIndex) => void>();
  /** per tenant, each patched build's version → the version it was patched from and the identities it changed */
  const steps = new Map<number, Map<number, { from: number; identities: ReadonlySet<number> }>>();
  function noteStep(clientId: number, from: AccessIndex | null, index: AccessIndex, identities: ReadonlySet<number> | null) {
    versionOf.set(index, ++versions);
    const fromVersion = from ? versionOf.get(from) : undefined;
    if (!identities || fromVersion === undefined) {
      steps.delete(clientId); // a full build: nothing before it is known to lead to it
      return;
    }
    const of = steps.get(clientId) ?? new Map<number, { from: number; identities: ReadonlySet<number> }>();
    steps.set(clientId, of);
    of.set(versions, { from: fromVersion, identities });
    if (of.size > STEPS_KEPT) of.delete(of.keys().next().value!);
  }

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
      .then(async (built) => {
        const base = built ?? cache.get(clientId);
        if (!base || what.everything) {
          folding.delete(clientId); // a fold of the people before is of no use to a new base
          const index = await buildIndex(db, clientId);
          noteStep(clientId, null, index, null);
          return index;
        }
        const patched = await patchIndex(db, clientId, base, what, (people) => onFoldedBase(clientId, people));
        touched += patched.touched;
        noteStep(clientId, base, patched.index, patched.changed);
        return patched.index;
      })
      .then((index) => {
        builds++;
        cache.set(clientId, index);
        foldLater(clientId, peopleOf(index));
        for (const l of listeners) l(clientId, index);
        return index;
      })
      .finally(() => {
        if (building.get(clientId) === p) building.delete(clientId);
      });
    building.set(clientId, p);
    return p;
  }

  /** Folds `people` into a fresh base in slices, unless they changed little or a fold of the tenant is under way. */
  function foldLater(clientId: number, people: People): void {
    if (stopped || people.changed < foldAt || folding.has(clientId)) return;
    const job: { from: People; base: PeopleBase | null } = { from: people, base: null };
    folding.set(clientId, job);
    const steps = folded(people);
    const step = () => {
      if (stopped || folding.get(clientId) !== job) return;
      try {
        const s = steps.next();
        if (!s.done) return void setImmediate(step);
        job.base = s.value;
        folds++;
      } catch (e) {
        folding.delete(clientId);
        opts.log?.(`access index ${clientId}: fold: ${e}`);
      }
    };
    setImmediate(step);
  }

  /** `people` on their tenant's freshest folded base, when a fold of their line is done (else as they are). */
  function onFoldedBase(clientId: number, people: People): People {
    const job = folding.get(clientId);
    if (!job?.base) return people;
    folding.delete(clientId);
    return people.rebasedOn(job.from, job.base) ?? people;
  }

  return {
    get builds() {
      return builds;
    },
    get touched() {
      return touched;
    },
    get folds() {
      return folds;
    },
    changedSince(clientId, newer, older) {
      const to = versionOf.get(older);
      const from = versionOf.get(newer);
      if (to === undefined || from === undefined) return null;
      const out = new Set<number>();
      const of = steps.get(clientId);
      let at: number = from;
      while (at !== to) {
        const step: { from: number; identities: ReadonlySet<number> } | undefined = of?.get(at);
        if (!step || at < to) return null;
        for (const id of step.identities) out.add(id);
        at = step.from;
      }
      return out;
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
      stopped = true;
      for (const t of dirty.values()) if (t) clearTimeout(t);
      dirty.clear();
      folding.clear();
    },
  };
}
