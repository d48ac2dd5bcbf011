// Writes that two transactions run at once and that lock several rows lock them in one order, whatever the order of
// their input (docs/ARCHITECTURE.md, "Lock order"): on the real database, the conflicting statements run side by side
// in opposite orders, several rounds, and none is refused as a deadlock; and a row locked to be edited leaves the foreign
// key checks of links written to it from their other end free. (PGlite has one connection: there the two run one after
// the other and the tests check only what they write.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { accessGroupsResource } from '../../contract/resources/accessGroups';
import { lockIdentitiesByEmployeeNo } from './queries/batch';
import { shelveAlarms } from './queries/alarmManagement';
import { processPointAlarms } from './queries/monitor';
import { advanceEdgeSeqs, noteEdgeAhead, processClearedPoints } from './queries/pipeline';
import { startTestServerIn, type TestServer } from '../testkit';

let s: TestServer;
let clientId = 0;

beforeAll(async () => void ({ s, clientId } = await startTestServerIn('NORTHWIND')), 60_000);
afterAll(() => s?.close());

/** Rounds of a race: on PostgreSQL as many as catch the deadlock; on PGlite (one connection, so no two transactions
 *  at once) one, which checks what the statements write (more were CI time spent proving nothing). */
const rounds = (n: number) => (process.env.DATABASE_URL ? n : 1);
const failures = (both: PromiseSettledResult<unknown>[]) => both.flatMap((x) => (x.status === 'rejected' ? [String(x.reason)] : []));
/** A record as a PUT takes it back: what the server sets left out. */
const editable = (r: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(r).filter(([k]) => !['id', 'clientId', 'createdAt', 'updatedAt'].includes(k)));
/** The platform admin working in Northwind, Northwind's access groups and first division. */
async function inNorthwind() {
  const token = await s.loginTo('admin', 'NORTHWIND');
  const groups = (await s.call('GET', `${accessGroupsResource.api}?size=10`, { token })).body.items as { id: number }[];
  const divisionId = (await s.call('GET', API.divisions, { token })).body.items[0].id as number;
  return { token, groups, divisionId };
}

describe("the event pipeline's alarms returned to normal", () => {
  /** An open alarm on each of `n` new points; the points. */
  async function openAlarms(round: number, n: number): Promise<string[]> {
    const points = Array.from({ length: n }, (_, i) => `lock-order-${round}-${String(i).padStart(4, '0')}`);
    await s.db.query(
      `with e as (insert into events (client_id, event_code, event_source_id, event_point_id, message)
         select $1, 1001, 'lock-order', p, 'lock order test' from unnest($2::text[]) p returning id, event_point_id, at)
       insert into alarms (event_id, client_id, event_code, event_point_id, priority, raised_at) select id, $1, 1001, event_point_id, 10, at from e`,
      [clientId, points],
    );
    return points;
  }

  beforeAll(async () => {
    // a site's history: many alarms processed long ago, a few open, the statistics up to date (autovacuum's analyze)
    await s.db.query(
      `with e as (insert into events (client_id, event_code, event_source_id, event_point_id, message)
         select $1, 1001, 'lock-order', 'history-' || (g % 500), 'lock order history' from generate_series(1, 50000) g returning id, event_point_id, at)
       insert into alarms (event_id, client_id, event_code, event_point_id, priority, raised_at, state, processed_at, processed_by)
       select id, $1, 1001, event_point_id, 10, at, 'processed', at, 'system' from e`,
      [clientId],
    );
    await s.db.query('analyze alarms');
  }, 60_000);

  /** `n` open alarms of one new point, every second one acknowledged (its row written again: the point's index now
   *  names them after the others, not in the order of their ids); the point. */
  async function pointWithAlarms(name: string, n: number): Promise<string> {
    await s.db.query(
      `with e as (insert into events (client_id, event_code, event_source_id, event_point_id, message)
         select $1, 1001, 'lock-order', $2, 'lock order test' from generate_series(1, $3::int) returning id, event_point_id, at)
       insert into alarms (event_id, client_id, event_code, event_point_id, priority, raised_at) select id, $1, 1001, event_point_id, 10, at from e`,
      [clientId, name, n],
    );
    await s.db.query(
      `update alarms set state = 'acknowledged', acknowledged_at = now(), acknowledged_by = 'test' where event_point_id = $1 and event_id % 2 = 1`,
      [name],
    );
    return name;
  }

  it('an operator processing or shelving a point while a batch returns it to normal: both go through (no deadlock)', async () => {
    // the operator's process (server/monitor/alarms.ts) and shelve (server/alarms/management.ts) lock the point's open
    // alarms; in the order of the point's index they crossed the pipeline's order (by id) once some were acknowledged
    for (let round = 0; round < rounds(16); round++) {
      const point = await pointWithAlarms(`lock-order-point-${round}`, 2000);
      const cleared = s.db.transaction((tx) => processClearedPoints(tx, [{ client: clientId, point, eid: 1 }], Number.MAX_SAFE_INTEGER));
      const operator = s.db.transaction((tx) =>
        round % 2 ? shelveAlarms(tx, clientId, point, null) : processPointAlarms(tx, clientId, point, 'operator', 'lock order test'),
      );
      const both = await Promise.allSettled([cleared, operator]);
      expect(failures(both), `round ${round} (${round % 2 ? 'shelve' : 'process'})`).toEqual([]);
    }
  }, 120_000);

  it('two transactions returning the same points to normal in opposite orders both go through (no deadlock)', async () => {
    // two pipeline transactions at once (depth 2 on PostgreSQL, and two servers behind the relay) each process the open
    // alarms of the points their batch returned to normal (server/monitor/pipeline.ts → processClearedPoints)
    for (let round = 0; round < rounds(5); round++) {
      const points = await openAlarms(round, 2000);
      const keys = points.map((point, i) => ({ client: clientId, point, eid: 1_000_000_000 + i }));
      const both = await Promise.allSettled([
        s.db.transaction((tx) => processClearedPoints(tx, keys, Number.MAX_SAFE_INTEGER)),
        s.db.transaction((tx) => processClearedPoints(tx, [...keys].reverse(), Number.MAX_SAFE_INTEGER)),
      ]);
      expect(failures(both), `round ${round}`).toEqual([]);
      const done = both.flatMap((x) => (x.status === 'fulfilled' ? x.value : []));
      // each alarm processed once, by one of the two
      expect(done.length, `round ${round}`).toBe(points.length);
      const { rows } = await s.db.query<{ n: string }>(
        `select count(*)::text n from alarms where client_id = $1 and event_point_id = any($2::text[]) and state <> 'processed'`,
        [clientId, points],
      );
      expect(rows[0].n).toBe('0');
    }
  }, 120_000);
});

describe("a catalogue row's links, written from both sides", () => {
  it("an identity's groups and a group's members changed at once from both sides both go through (no deadlock)", async () => {
    // a catalogue edit locks its row first (server/crud/rows.ts load) and then writes its links; the link's foreign key
    // check takes a key-share lock on the row at the other end. Locked "for update", the identity's edit and the
    // group's edit each waited for the other's row (the group, the identity) while holding their own: 503, 1 in 2
    // rounds. "For no key update" (nothing of a catalogue edit changes a key another row refers to) does not block
    // those checks
    const { token, groups, divisionId } = await inNorthwind();
    const person = { firstName: 'Lock', lastName: 'Order', employeeNo: 'LOCK-LINK-1', divisionId, status: 'active', credentials: [] };
    const made = await s.call('POST', API.identities, { token, body: { ...person, accessGroupIds: [] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.id as number;
    for (let round = 0; round < rounds(8); round++) {
      const g = groups[round % 2].id;
      const group = (await s.call('GET', `${accessGroupsResource.api}/${g}`, { token })).body;
      const others = ((group.members ?? []) as number[]).filter((m) => m !== id);
      const join = round % 4 < 2; // in (both sides add the link), then out (both take it away)
      const [fromIdentity, fromGroup] = await Promise.all([
        s.call('PUT', `${API.identities}/${id}`, { token, body: { ...person, lastName: `Order ${round}`, accessGroupIds: join ? [g] : [] } }),
        s.call('PUT', `${accessGroupsResource.api}/${g}`, { token, body: { ...editable(group), members: join ? [...others, id] : others } }),
      ]);
      expect([fromIdentity.status, fromGroup.status], `round ${round}: ${JSON.stringify([fromIdentity.body, fromGroup.body]).slice(0, 400)}`).toEqual([
        200, 200,
      ]);
      const linked = (await s.call('GET', `${accessGroupsResource.api}/${g}`, { token })).body.members.includes(id);
      expect(linked, `round ${round}`).toBe(join);
    }
  }, 120_000);
});

describe("a batch import's people and a group's members", () => {
  it("an import holding a person and a group's edit adding that person both go through (no deadlock)", async () => {
    // an import's transaction locks the people of its rows that exist (lockIdentitiesByEmployeeNo), then writes each
    // one's groups as the catalogue does (server/crud/write.ts). A group's edit adding the same person meanwhile
    // inserts the link and checks its foreign key with a key-share lock on the person. Locked "for update", that check
    // waited for the import and the import's insert of the same link waited for the group's: 503 every time
    const { token, groups, divisionId } = await inNorthwind();
    for (let round = 0; round < rounds(2); round++) {
      const employeeNo = `LOCK-IMPORT-${round}`;
      const made = await s.call('POST', API.identities, {
        token,
        body: { firstName: 'Lock', lastName: 'Import', employeeNo, divisionId, status: 'active', credentials: [], accessGroupIds: [] },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body.id as number;
      const g = groups[round % 2].id;
      const group = (await s.call('GET', `${accessGroupsResource.api}/${g}`, { token })).body;
      let locked: () => void = () => {};
      const heldLock = new Promise<void>((resolve) => (locked = resolve));
      const imported = s.db.transaction(async (tx) => {
        expect((await lockIdentitiesByEmployeeNo(tx, clientId, [employeeNo])).map((r) => Number(r.id))).toEqual([id]);
        locked();
        // the group's edit is under way (on PostgreSQL it waits for the import; PGlite runs it after)
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.query('insert into access_group_members (access_group_id, identity_id) values ($1, $2) on conflict do nothing', [g, id]);
      });
      await heldLock;
      const fromGroup = s.call('PUT', `${accessGroupsResource.api}/${g}`, {
        token,
        body: { ...editable(group), members: [...(group.members as number[]), id] },
      });
      const both = await Promise.allSettled([imported, fromGroup]);
      expect(failures(both), `round ${round}`).toEqual([]);
      expect((both[1] as PromiseFulfilledResult<{ status: number; body: unknown }>).value.status, JSON.stringify(both[1]).slice(0, 300)).toBe(200);
      expect((await s.call('GET', `${accessGroupsResource.api}/${g}`, { token })).body.members).toContain(id);
    }
  }, 60_000);
});

describe("the pipeline's edge numbers", () => {
  it("a transaction noting an event ahead for one controller and another moving both controllers' numbers: both go through", async () => {
    // a batch's transaction notes an edge's live event stored ahead (noteEdgeAhead: its foreign key check holds a
    // key-share lock on the controller's edge_controllers row) before it locks the rows of the controllers whose numbers
    // it moves (advanceEdgeSeqs, in controller order). Locked "for update", another transaction moving both numbers
    // waited for that key share while holding the first controller, which the first one then asked for: a deadlock
    const { rows } = await s.db.query<{ id: number }>('select id from controllers where client_id = $1 order by id limit 2', [clientId]);
    expect(rows).toHaveLength(2);
    const [c1, c2] = rows.map((r) => Number(r.id));
    await s.db.query('insert into edge_controllers (controller_id, client_id) values ($1, $3), ($2, $3) on conflict do nothing', [c1, c2, clientId]);
    for (let round = 0; round < rounds(2); round++) {
      const seq = async (c: number) =>
        Number((await s.db.query<{ n: string }>('select last_seq::text n from edge_controllers where controller_id = $1', [c])).rows[0].n);
      const [s1, s2] = [await seq(c1), await seq(c2)];
      let noted: () => void = () => {};
      const aheadNoted = new Promise<void>((resolve) => (noted = resolve));
      const first = s.db.transaction(async (tx) => {
        await noteEdgeAhead(tx, [{ controllerId: c2, seq: s2 + 1000 + round }]);
        noted();
        await new Promise((resolve) => setTimeout(resolve, 300));
        return advanceEdgeSeqs(tx, s.db.kind === 'postgres', new Map([[c1, [s1 + 1, s1 + 1]]]));
      });
      await aheadNoted;
      const second = s.db.transaction((tx) =>
        advanceEdgeSeqs(
          tx,
          s.db.kind === 'postgres',
          new Map([
            [c1, [s1 + 1, s1 + 2]],
            [c2, [s2 + 1, s2 + 1]],
          ]),
        ),
      );
      const both = await Promise.allSettled([first, second]);
      expect(failures(both), `round ${round}`).toEqual([]);
    }
  }, 60_000);
});

describe("the catalogue's bulk delete", () => {
  /** `n` new identities of Northwind, in no group; their ids. */
  async function people(tag: string, n: number): Promise<number[]> {
    const { token, divisionId } = await inNorthwind();
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const made = await s.call('POST', API.identities, {
        token,
        body: { firstName: 'Lock', lastName: `Delete ${i}`, employeeNo: `${tag}-${i}`, divisionId, status: 'active', credentials: [], accessGroupIds: [] },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      ids.push(made.body.id as number);
    }
    return ids;
  }
  const left = async (ids: number[]) => s.count('select id from identities where id = any($1::int[])', [ids]);

  it('two bulk deletes naming the same rows in opposite orders: one deletes them, the other finds them gone (no deadlock)', async () => {
    // a bulk delete locks each row it names (server/crud/delete.ts); in the order of its request, two requests naming
    // the same rows in opposite orders each held a row the other waited for (the one refused was answered 404, "not
    // found": any failure while loading the rows was said so; now a deadlock is its 503)
    const { token } = await inNorthwind();
    for (let round = 0; round < rounds(6); round++) {
      const ids = await people(`LOCK-BULK-${round}`, 8);
      const [one, other] = await Promise.all([
        s.call('POST', `${API.identities}/bulk-delete`, { token, body: { ids } }),
        s.call('POST', `${API.identities}/bulk-delete`, { token, body: { ids: [...ids].reverse() } }),
      ]);
      expect([one.status, other.status].sort(), `round ${round}: ${JSON.stringify([one.body, other.body]).slice(0, 400)}`).toEqual([200, 404]);
      expect(await left(ids)).toBe(0);
    }
  }, 120_000);

  it("a bulk delete of identities beside a group's edit adding them in the other order: both go through (no deadlock)", async () => {
    // the group's edit locks the group and inserts each member's link, whose foreign key check takes a key-share lock on
    // the identity; the bulk delete locks the identities and deletes them. Whichever commits first, the other is
    // answered for what it finds: never a deadlock's 503
    const { token, groups } = await inNorthwind();
    for (let round = 0; round < rounds(6); round++) {
      const ids = await people(`LOCK-BULK-GROUP-${round}`, 8);
      const g = groups[round % 2].id;
      const group = (await s.call('GET', `${accessGroupsResource.api}/${g}`, { token })).body;
      const [deleted, edited] = await Promise.all([
        s.call('POST', `${API.identities}/bulk-delete`, { token, body: { ids: round % 2 ? ids : [...ids].reverse() } }),
        s.call('PUT', `${accessGroupsResource.api}/${g}`, {
          token,
          body: { ...editable(group), members: [...(group.members as number[]), ...(round % 2 ? [...ids].reverse() : ids)] },
        }),
      ]);
      const said = `round ${round}: ${JSON.stringify([deleted.body, edited.body]).slice(0, 400)}`;
      expect(deleted.status, said).toBe(200);
      expect(edited.status, said).not.toBe(503);
      expect(await left(ids)).toBe(0);
    }
  }, 120_000);
});
