// The people part of an access index (server/access/index.ts): credentials, identities and their access groups, up to
// 200,000 of each in one tenant. An index handed out is never changed, and an identity's change must not copy the
// tenant: copying the three maps took 150–300 ms of the event loop per edit at 200,000 identities, while swipes
// waited. So each map is a base shared by every index since the last fold, with the changes since laid over it
// (LayeredMap): a change copies the changes alone. Once they pass a few thousand entries they are folded into a fresh
// base in slices between other work (folded), and the next change moves onto that base (People.rebasedOn). A base is
// split into shards by key (ShardedMap): a fold copies the shards the changes touch and shares the others, so it
// allocates in proportion to the changes, not the tenant (copying the tenant's maps whole, 50 MB a fold at 200,000
// identities, set off the garbage collections that held the event loop, and a big map's rehash held a slice).
import type { CredentialFact, IdentityFact } from '../../access/engine';
import type { groupMemberRows, peopleRows } from '../db/queries/accessIndex';

export type PeopleRows = Awaited<ReturnType<typeof peopleRows>>;
type MemberRows = Awaited<ReturnType<typeof groupMemberRows>>;

/**
 * A map read as `base` with `changes` laid over it (a key changed to undefined is gone). Neither is changed once
 * made, so a map handed out answers the same for ever; `with` makes the next one.
 */
export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  readonly size: number;

  constructor(
    readonly base: ReadonlyMap<K, V>,
    readonly changes: ReadonlyMap<K, V | undefined> = new Map(),
    size?: number,
  ) {
    this.size = size ?? base.size + [...changes].reduce((n, [k, v]) => n + (v === undefined ? 0 : 1) - (base.has(k) ? 1 : 0), 0);
  }

  get(key: K): V | undefined {
    if (!this.changes.size) return this.base.get(key);
    const v = this.changes.get(key);
    return v !== undefined || this.changes.has(key) ? v : this.base.get(key);
  }

  has(key: K): boolean {
    return this.changes.has(key) ? this.changes.get(key) !== undefined : this.base.has(key);
  }

  /** This map with `more` changed (undefined: taken out): its changes are copied, its base shared. */
  with(more: Iterable<readonly [K, V | undefined]>): LayeredMap<K, V> {
    const changes = new Map(this.changes);
    let size = this.size;
    for (const [k, v] of more) {
      const had = changes.has(k) ? changes.get(k) !== undefined : this.base.has(k);
      // nothing to take out; and a key never leaves the changes before a fold (rebasedOn relies on it)
      if (v === undefined && !had) continue;
      changes.set(k, v);
      size += (v === undefined ? 0 : 1) - (had ? 1 : 0);
    }
    return new LayeredMap(this.base, changes, size);
  }

  /**
   * This map over `base`, which is `from` folded; null unless `from` is this map or an earlier one of its line (the
   * same base, its changed keys among this one's). What this map changed since `from` stays laid over `base`.
   */
  rebasedOn(from: LayeredMap<K, V>, base: ReadonlyMap<K, V>): LayeredMap<K, V> | null {
    if (from.base !== this.base) return null;
    for (const k of from.changes.keys()) if (!this.changes.has(k)) return null;
    const changes = new Map<K, V | undefined>();
    for (const [k, v] of this.changes) if (!from.changes.has(k) || from.changes.get(k) !== v) changes.set(k, v);
    return new LayeredMap(base, changes, this.size);
  }

  entries(): MapIterator<[K, V]> {
    return this.changes.size ? this.layered() : this.base.entries();
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
  keys(): MapIterator<K> {
    return this.changes.size ? this.layeredKeys() : this.base.keys();
  }
  values(): MapIterator<V> {
    return this.changes.size ? this.layeredValues() : this.base.values();
  }
  forEach(f: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) f.call(thisArg, v, k, this);
  }

  private *layered(): MapIterator<[K, V]> {
    for (const e of this.base) if (!this.changes.has(e[0])) yield e;
    for (const [k, v] of this.changes) if (v !== undefined) yield [k, v];
  }
  private *layeredKeys(): MapIterator<K> {
    for (const [k] of this.layered()) yield k;
  }
  private *layeredValues(): MapIterator<V> {
    for (const [, v] of this.layered()) yield v;
  }
}

/** Entries a shard of a base holds, about (a fold copies a touched shard whole). */
const SHARD_ENTRIES = 32;
/** Shared by every empty shard. */
const EMPTY: ReadonlyMap<unknown, never> = new Map<unknown, never>();

/** The shard of `key` among `mask + 1` (a power of two): an id's low bits, a text's FNV-1a hash. */
function shardOf(key: number | string, mask: number): number {
  if (typeof key === 'number') return key & mask;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h & mask;
}

/**
 * A base's map, split into shards by key, never changed once made. `with` makes the next one: it copies the shards
 * its changes touch and shares every other, so a fold allocates in proportion to the changes, not to the map.
 */
export class ShardedMap<K extends number | string, V> implements ReadonlyMap<K, V> {
  private constructor(
    /** a power of two of them; untouched shards are shared with the maps this one was made from */
    readonly shards: readonly ReadonlyMap<K, V>[],
    readonly size: number,
  ) {}

  /** A sharded map of `entries` (`size` of them), made a slice at a time. */
  static *of<K extends number | string, V>(entries: Iterable<readonly [K, V]>, size: number): Generator<void, ShardedMap<K, V>, void> {
    let n = 1;
    while (n * SHARD_ENTRIES < size) n *= 2;
    const shards = Array.from({ length: n }, () => new Map<K, V>());
    let count = 0;
    for (const [k, v] of entries) {
      shards[shardOf(k, n - 1)].set(k, v);
      if (++count % FOLD_SLICE === 0) yield;
    }
    return new ShardedMap<K, V>(
      shards.map((s) => (s.size ? s : (EMPTY as ReadonlyMap<K, V>))),
      count,
    );
  }

  /** This map with `changes` made (undefined: taken out): the shards they touch copied, every other shared. */
  *with(changes: Iterable<readonly [K, V | undefined]>): Generator<void, ShardedMap<K, V>, void> {
    const mask = this.shards.length - 1;
    const shards = [...this.shards];
    const copied = new Set<number>();
    let size = this.size;
    let work = 0;
    for (const [k, v] of changes) {
      const i = shardOf(k, mask);
      if (!copied.has(i)) {
        copied.add(i);
        shards[i] = new Map(this.shards[i]);
        work += shards[i].size;
      }
      const shard = shards[i] as Map<K, V>;
      const had = shard.has(k);
      if (v === undefined) {
        if (had) shard.delete(k);
      } else shard.set(k, v);
      size += (v === undefined ? 0 : 1) - (had ? 1 : 0);
      if (++work >= FOLD_SLICE) {
        work = 0;
        yield;
      }
    }
    for (const i of copied) if (!shards[i].size) shards[i] = EMPTY as ReadonlyMap<K, V>;
    const made = new ShardedMap<K, V>(shards, size);
    // grown well past its shards (their entries four times what they were made for): split again
    return size > shards.length * SHARD_ENTRIES * 4 ? yield* ShardedMap.of(made, size) : made;
  }

  get(key: K): V | undefined {
    return this.shards[shardOf(key, this.shards.length - 1)].get(key);
  }
  has(key: K): boolean {
    return this.shards[shardOf(key, this.shards.length - 1)].has(key);
  }
  entries(): MapIterator<[K, V]> {
    return this.all();
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.all();
  }
  keys(): MapIterator<K> {
    return this.allKeys();
  }
  values(): MapIterator<V> {
    return this.allValues();
  }
  forEach(f: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const shard of this.shards) for (const [k, v] of shard) f.call(thisArg, v, k, this);
  }
  private *all(): MapIterator<[K, V]> {
    for (const shard of this.shards) yield* shard.entries();
  }
  private *allKeys(): MapIterator<K> {
    for (const shard of this.shards) yield* shard.keys();
  }
  private *allValues(): MapIterator<V> {
    for (const shard of this.shards) yield* shard.values();
  }
}

/** The maps people are laid over, and what finds an identity's or a group's entries in them without a scan. */
export interface PeopleBase {
  credentials: ShardedMap<string, CredentialFact>;
  identities: ShardedMap<number, IdentityFact>;
  groupsOf: ShardedMap<number, readonly number[]>;
  /** identity → its card numbers in `credentials` */
  cardsOf: ShardedMap<number, readonly string[]>;
  /** access group → the identities with it in `groupsOf` */
  membersOf: ShardedMap<number, readonly number[]>;
}

/** One index's people: the three maps it hands out, over their shared base. */
export class People {
  constructor(
    readonly base: PeopleBase,
    readonly credentials = new LayeredMap(base.credentials),
    readonly identities = new LayeredMap(base.identities),
    readonly groupsOf = new LayeredMap(base.groupsOf),
  ) {}

  /** People from their rows (a full build). */
  static of(rows: PeopleRows): People {
    const { credentials, identities, groupsOf } = factsOf(rows);
    return new People(finish(based(credentials, identities, groupsOf)));
  }

  /** People over copies of these maps (an index made elsewhere). */
  static copied(maps: {
    credentials: ReadonlyMap<string, CredentialFact>;
    identities: ReadonlyMap<number, IdentityFact>;
    groupsOf: ReadonlyMap<number, readonly number[]>;
  }): People {
    return new People(finish(based(maps.credentials, maps.identities, maps.groupsOf)));
  }

  /** Entries changed over the base (a fold is due past a few thousand). */
  get changed(): number {
    return this.credentials.changes.size + this.identities.changes.size + this.groupsOf.changes.size;
  }

  /**
   * These people with identities `ids` as `rows` (peopleRows of those ids) have them now: their identity, cards and
   * groups replaced, or taken out when gone. `touched`: the entries looked at and copied, in proportion to the
   * changes laid over the base, never to the tenant.
   */
  withIdentities(ids: ReadonlySet<number>, rows: PeopleRows): { people: People; touched: number } {
    let touched = 0;
    const credentials = new Map<string, CredentialFact | undefined>();
    // their cards as this index has them: the base's (unless since given to another identity) and the changed ones
    for (const id of ids)
      for (const number of this.base.cardsOf.get(id) ?? []) {
        touched++;
        if (this.credentials.get(number)?.identityId === id) credentials.set(number, undefined);
      }
    for (const [number, c] of this.credentials.changes) {
      touched++;
      if (c && ids.has(c.identityId)) credentials.set(number, undefined);
    }
    const facts = factsOf(rows);
    for (const [number, c] of facts.credentials) credentials.set(number, c);
    const people = new People(
      this.base,
      this.credentials.with(credentials),
      this.identities.with([...ids].map((id) => [id, facts.identities.get(id)] as const)),
      this.groupsOf.with([...ids].map((id) => [id, facts.groupsOf.get(id)] as const)),
    );
    return { people, touched: touched + people.changed };
  }

  /** These people with access groups `groupIds`' members as `members` (groupMemberRows of those groups) has them now. */
  withGroups(groupIds: ReadonlySet<number>, members: MemberRows): { people: People; touched: number } {
    let touched = 0;
    // who is in the groups as this index has it: the base's members (unless changed since) and the changed lists
    const were = new Set<number>();
    for (const g of groupIds)
      for (const id of this.base.membersOf.get(g) ?? []) {
        touched++;
        were.add(id);
      }
    for (const [id, groups] of this.groupsOf.changes) {
      touched++;
      if (groups?.some((g) => groupIds.has(g))) were.add(id);
    }
    const added = new Map<number, number[]>();
    for (const m of members) added.set(m.identity_id, [...(added.get(m.identity_id) ?? []), m.access_group_id]);
    const groupsOf = new Map<number, readonly number[] | undefined>();
    for (const id of new Set([...were, ...added.keys()])) {
      const now = this.groupsOf.get(id) ?? [];
      if (!added.has(id) && !now.some((g) => groupIds.has(g))) continue; // left the groups since the base
      const list = [...now.filter((g) => !groupIds.has(g)), ...(added.get(id) ?? [])];
      groupsOf.set(id, list.length ? list : undefined);
    }
    const people = new People(this.base, this.credentials, this.identities, this.groupsOf.with(groupsOf));
    return { people, touched: touched + people.changed };
  }

  /** These people over `base`, which is `from` folded (LayeredMap.rebasedOn); null when `from` is not of their line. */
  rebasedOn(from: People, base: PeopleBase): People | null {
    const credentials = this.credentials.rebasedOn(from.credentials, base.credentials);
    const identities = this.identities.rebasedOn(from.identities, base.identities);
    const groupsOf = this.groupsOf.rebasedOn(from.groupsOf, base.groupsOf);
    return credentials && identities && groupsOf ? new People(base, credentials, identities, groupsOf) : null;
  }
}

/** Entries handled between two pauses of a fold (a few milliseconds of the event loop). */
const FOLD_SLICE = 5_000;

/**
 * A fresh base holding `people` as they are, made a slice at a time: it pauses (yields) every FOLD_SLICE entries so
 * that whoever runs it lets swipes in between (index.ts). It copies the shards of the base that the changes touch,
 * and shares every other with the base (never changed: an index handed out over it answers as it did).
 */
export function* folded(people: People): Generator<void, PeopleBase, void> {
  const { base } = people;
  const credentials = yield* base.credentials.with(people.credentials.changes);
  const identities = yield* base.identities.with(people.identities.changes);
  const groupsOf = yield* base.groupsOf.with(people.groupsOf.changes);
  // the cards of the identities a changed card left or went to
  const owners = new Set<number>();
  const gained = new Map<number, string[]>();
  for (const [number, c] of people.credentials.changes) {
    const was = base.credentials.get(number);
    if (was) owners.add(was.identityId);
    if (!c) continue;
    owners.add(c.identityId);
    if (was?.identityId !== c.identityId) gained.set(c.identityId, [...(gained.get(c.identityId) ?? []), number]);
  }
  const cards = new Map<number, readonly string[] | undefined>();
  for (const id of owners) {
    const list = [...(base.cardsOf.get(id) ?? []).filter((n) => credentials.get(n)?.identityId === id), ...(gained.get(id) ?? [])];
    cards.set(id, list.length ? list : undefined);
  }
  const cardsOf = yield* base.cardsOf.with(cards);
  // the members of the groups a changed identity left or joined
  const left = new Map<number, Set<number>>();
  const joined = new Map<number, number[]>();
  for (const [id, groups] of people.groupsOf.changes) {
    const was = base.groupsOf.get(id) ?? [];
    const now = groups ?? [];
    for (const g of was) if (!now.includes(g)) left.set(g, (left.get(g) ?? new Set()).add(id));
    for (const g of now) if (!was.includes(g)) joined.set(g, [...(joined.get(g) ?? []), id]);
  }
  const members = new Map<number, readonly number[] | undefined>();
  for (const g of new Set([...left.keys(), ...joined.keys()])) {
    const gone = left.get(g);
    const list = (base.membersOf.get(g) ?? []).filter((id) => !gone?.has(id)).concat(joined.get(g) ?? []);
    members.set(g, list.length ? list : undefined);
    yield; // a group of the whole tenant is a slice of its own
  }
  const membersOf = yield* base.membersOf.with(members);
  return { credentials, identities, groupsOf, cardsOf, membersOf };
}

/** Runs a fold to its end at once (a full build, which reads the tenant anyway). */
function finish<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** A base of these maps, with its lookups by identity and by group (a full build). */
function* based(
  credentials: ReadonlyMap<string, CredentialFact>,
  identities: ReadonlyMap<number, IdentityFact>,
  groupsOf: ReadonlyMap<number, readonly number[]>,
): Generator<void, PeopleBase, void> {
  const cardsOf = new Map<number, string[]>();
  for (const [number, c] of credentials) {
    const list = cardsOf.get(c.identityId);
    if (list) list.push(number);
    else cardsOf.set(c.identityId, [number]);
  }
  const membersOf = new Map<number, number[]>();
  for (const [id, groups] of groupsOf) {
    for (const g of groups) {
      const list = membersOf.get(g);
      if (list) list.push(id);
      else membersOf.set(g, [id]);
    }
  }
  return {
    credentials: yield* ShardedMap.of(credentials, credentials.size),
    identities: yield* ShardedMap.of(identities, identities.size),
    groupsOf: yield* ShardedMap.of(groupsOf, groupsOf.size),
    cardsOf: yield* ShardedMap.of(cardsOf, cardsOf.size),
    membersOf: yield* ShardedMap.of(membersOf, membersOf.size),
  };
}

/** People's facts from their rows: a PIN is its identity's (the last one), any other credential a card. */
function factsOf({ creds, people, members }: PeopleRows) {
  const credentials = new Map<string, CredentialFact>();
  const identities = new Map<number, IdentityFact>();
  const groupsOf = new Map<number, number[]>();
  const pins = new Map<number, string>();
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
  for (const p of people)
    identities.set(p.id, { id: p.id, name: p.name, status: p.status, validFrom: p.valid_from, validTo: p.valid_to, pin: pins.get(p.id) ?? null });
  for (const m of members) {
    const list = groupsOf.get(m.identity_id);
    if (list) list.push(m.access_group_id);
    else groupsOf.set(m.identity_id, [m.access_group_id]);
  }
  return { credentials, identities, groupsOf };
}
