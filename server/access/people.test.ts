// The people maps of an access index (server/access/people.ts): changes laid over a shared base, folded into a fresh
// base, and the changes made while the fold ran kept when the next index moves onto it. server/access/indexes.test.ts
// holds the indexes to a full build through the API; here, what those tests cannot time: a change between a fold's
// start and its use.
import { describe, expect, it } from 'vitest';
import { LayeredMap, People, type ShardedMap, folded, type PeopleRows } from './people';

/** A credential's id: the same for the same number in every set of rows, as in the database. */
const credentialIds = new Map<string, number>();
const credentialId = (number: string) => credentialIds.get(number) ?? (credentialIds.set(number, credentialIds.size + 1), credentialIds.size);
/** People's rows: identity `id` with card `C<id>` (and more cards), PIN and access groups as given. */
const rows = (people: { id: number; name?: string; cards?: string[]; pin?: string; groups?: number[] }[]): PeopleRows => {
  const creds: PeopleRows['creds'] = [];
  for (const p of people) {
    for (const number of p.cards ?? [`C${p.id}`])
      creds.push({
        id: credentialId(number),
        identity_id: p.id,
        type: 'card',
        number,
        facility_code: null,
        status: 'active',
        valid_from: null,
        valid_to: null,
      });
    if (p.pin)
      creds.push({
        id: credentialId(p.pin),
        identity_id: p.id,
        type: 'pin',
        number: p.pin,
        facility_code: null,
        status: 'active',
        valid_from: null,
        valid_to: null,
      });
  }
  return {
    creds,
    people: people.map((p) => ({ id: p.id, name: p.name ?? `Person ${p.id}`, status: 'active', valid_from: null, valid_to: null })),
    members: people.flatMap((p) => (p.groups ?? []).map((g) => ({ access_group_id: g, identity_id: p.id }))),
  };
};
/** What people answer, in a form to compare. */
const plain = (p: People) => ({
  credentials: [...p.credentials].sort(([a], [b]) => a.localeCompare(b)),
  identities: [...p.identities].sort(([a], [b]) => a - b),
  groupsOf: [...p.groupsOf].map(([id, g]) => [id, [...g].sort()] as const).sort(([a], [b]) => a - b),
  sizes: [p.credentials.size, p.identities.size, p.groupsOf.size],
});
const run = <T>(steps: Generator<void, T, void>): T => {
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
  }
};

describe('people maps', () => {
  const everyone = [{ id: 1, pin: '1111', groups: [10] }, { id: 2, groups: [10, 20] }, { id: 3, cards: ['C3', 'C3b'], groups: [20] }, { id: 4 }];

  it('a change is laid over the base: taken out (identity, card, PIN, group) and put in, the people before unchanged', () => {
    const before = People.of(rows(everyone));
    const was = plain(before);
    // 1 loses its PIN and group, 3 a card, 4 is deleted, 5 is new
    const ids = new Set([1, 3, 4, 5]);
    const { people } = before.withIdentities(
      ids,
      rows([
        { id: 1, name: 'Renamed' },
        { id: 3, groups: [20] },
        { id: 5, groups: [10] },
      ]),
    );
    expect(plain(people)).toEqual(plain(People.of(rows([{ id: 1, name: 'Renamed' }, everyone[1], { id: 3, groups: [20] }, { id: 5, groups: [10] }]))));
    expect(plain(before)).toEqual(was);
    expect(people.credentials.base).toBe(before.credentials.base);
    expect(people.identities.get(4)).toBeUndefined();
    expect(people.identities.has(4)).toBe(false);
    expect(people.credentials.has('C3b')).toBe(false);
  });

  it("a group's members replaced: those left out lose it, those added gain it", () => {
    const before = People.of(rows(everyone));
    const { people } = before.withGroups(new Set([10]), [
      { access_group_id: 10, identity_id: 3 },
      { access_group_id: 10, identity_id: 4 },
    ]);
    expect(plain(people)).toEqual(
      plain(
        People.of(
          rows([
            { id: 1, pin: '1111' },
            { id: 2, groups: [20] },
            { id: 3, cards: ['C3', 'C3b'], groups: [20, 10] },
            { id: 4, groups: [10] },
          ]),
        ),
      ),
    );
  });

  it('a card moved to another identity stays with it when the one it left changes', () => {
    const before = People.of(rows(everyone));
    const taken = before.withIdentities(new Set([2]), rows([{ id: 2, cards: ['C2', 'C1'], groups: [10, 20] }])).people;
    const left = taken.withIdentities(new Set([1]), rows([{ id: 1, cards: [], pin: '1111', groups: [10] }])).people;
    expect(left.credentials.get('C1')?.identityId).toBe(2);
  });

  it('a fold keeps the changes made while it ran: the people after it, moved onto its base, answer the same', () => {
    const base = People.of(rows(everyone));
    const from = base.withIdentities(new Set([1, 4]), rows([{ id: 1, name: 'One' }])).people;
    const fresh = run(folded(from));
    // while the fold ran: 1 changed again, 2 deleted, 5 new, group 20's members replaced
    let later = from.withIdentities(
      new Set([1, 2, 5]),
      rows([
        { id: 1, name: 'One again', pin: '9999' },
        { id: 5, groups: [20] },
      ]),
    ).people;
    later = later.withGroups(new Set([20]), [{ access_group_id: 20, identity_id: 1 }]).people;
    const moved = later.rebasedOn(from, fresh);
    expect(moved).not.toBeNull();
    expect(plain(moved!)).toEqual(plain(later));
    expect(moved!.credentials.base).toBe(fresh.credentials);
    // what it lays over the fresh base is what changed since the fold's start, not before
    expect(moved!.identities.changes.size).toBe(3);
    expect(plain(from)).toEqual(plain(base.withIdentities(new Set([1, 4]), rows([{ id: 1, name: 'One' }])).people));
    // a fold of another line is not used
    expect(People.of(rows(everyone)).rebasedOn(from, fresh)).toBeNull();
  });

  it("a fold copies the base's shards its changes touch, shares every other and never looks through the base", () => {
    // 5,000 identities with a card each, every tenth in a group. Copying the tenant's maps whole (50 MB a fold at
    // 200,000 identities) set off the garbage collections that held the event loop (docs/BENCHMARKS.md, access index)
    const many = Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, groups: i % 10 ? [] : [10] }));
    const base = People.of(rows(many));
    // 5 identities changed: renamed, a card replaced, one leaves the group, one joins it, one deleted
    const changed = [
      { id: 7, name: 'Renamed' },
      { id: 8, cards: ['C8-new'] },
      { id: 11, groups: [] },
      { id: 12, groups: [10, 20] },
    ];
    const from = base.withIdentities(new Set([7, 8, 11, 12, 13]), rows(changed)).people;
    // every look through the base's maps counted: a copy of one (new Map) or a scan goes through its iterators
    let looked = 0;
    const maps = Object.values(from.base) as ShardedMap<number | string, unknown>[];
    for (const m of maps)
      for (const name of [Symbol.iterator, 'entries', 'keys', 'values', 'forEach'] as const) {
        const f = (m as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>)[name];
        Object.defineProperty(m, name, {
          configurable: true,
          value(this: unknown, ...a: unknown[]) {
            looked++;
            return f.apply(this, a);
          },
        });
      }
    const fresh = run(folded(from));
    expect(looked).toBe(0);
    // the shards copied are those of the keys changed (up to 8): of 256 a map
    for (const [name, m] of Object.entries(fresh) as [string, ShardedMap<number | string, unknown>][]) {
      const was = from.base[name as keyof typeof fresh] as ShardedMap<number | string, unknown>;
      expect(m.shards.length, name).toBe(was.shards.length);
      expect(m.shards.filter((shard, i) => shard !== was.shards[i]).length, name).toBeLessThanOrEqual(8);
    }
    expect(fresh.identities.shards.length).toBe(256);
    // and it answers as a full build of the same people, as do its lookups by identity and group
    const now = [...many.filter((p) => ![7, 8, 11, 12, 13].includes(p.id)), ...changed];
    const full = People.of(rows(now));
    const moved = from.rebasedOn(from, fresh)!;
    expect(plain(moved)).toEqual(plain(full));
    expect(moved.identities.changes.size).toBe(0);
    const sorted = <T>(m: ReadonlyMap<number, readonly T[]>) => [...m].map(([k, v]) => [k, [...v].sort()] as const).sort(([a], [b]) => a - b);
    expect(sorted(fresh.cardsOf)).toEqual(sorted(full.base.cardsOf));
    expect(sorted(fresh.membersOf)).toEqual(sorted(full.base.membersOf));
    // the base before is as it was: an index handed out over it answers the same
    expect(from.base.identities.get(7)?.name).toBe('Person 7');
    expect(from.base.credentials.has('C8-new')).toBe(false);
    expect(from.base.membersOf.get(10)).toContain(11);
  });

  it('a layered map answers like a map: size, iteration, a key taken out that was never there', () => {
    const base = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    const m = new LayeredMap(base).with([
      ['b', undefined],
      ['c', 3],
      ['x', undefined],
    ]);
    expect(m.size).toBe(2);
    expect([...m]).toEqual([
      ['a', 1],
      ['c', 3],
    ]);
    expect([...m.keys()]).toEqual(['a', 'c']);
    expect([...m.values()]).toEqual([1, 3]);
    expect(m.changes.has('x')).toBe(false);
    expect(new LayeredMap(base, m.changes).size).toBe(2);
    expect(base.size).toBe(2);
  });
});
