// Lock order of the doors (docs/ARCHITECTURE.md, "Lock order"): the event pipeline's batch transaction writes the
// doors' statuses as edge events say them, its door rows locked first in the order of their ids and held until it
// commits (server/db/queries/edgeIngest.ts moveDoorStatuses); an operator's lockdown or release of divisions writes
// many doors in one statement (server/db/queries/doors.ts setDivisionsLockdown). On the real database the two run at
// once on the same doors and neither is refused as a deadlock. (PGlite has one connection: there the two run one after
// the other and the test checks only what they write.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDivisionsLockdown } from './queries/doors';
import { moveDoorStatuses } from './queries/edgeIngest';
import { startTestServerIn, type TestServer } from '../testkit';

let s: TestServer;
let clientId = 0;

beforeAll(async () => void ({ s, clientId } = await startTestServerIn('NORTHWIND')), 60_000);
afterAll(() => s?.close());

const failures = (all: PromiseSettledResult<unknown>[]) => all.flatMap((x) => (x.status === 'rejected' ? [String(x.reason)] : []));

/** Until `n` backends of this database wait for a lock (PostgreSQL), at most 10 s; whether they did. */
async function waitersReach(n: number): Promise<boolean> {
  for (const until = Date.now() + 10_000; Date.now() < until;) {
    const { rows } = await s.db.query<{ n: string }>(
      `select count(*)::text n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (Number(rows[0].n) >= n) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

describe("a lockdown of divisions beside the event pipeline's door statuses", () => {
  it('an operator locking down (and releasing) a division while a batch moves its doors: both go through (no deadlock)', async () => {
    // a division of three doors a < x < c whose rows lie in the table in the other order (c, x, a): a statement that
    // locks them in its plan's order (a scan of the table) locks c first, the pipeline locks a first
    const {
      rows: [{ id: division }],
    } = await s.db.query<{ id: number }>(`insert into divisions (client_id, name) values ($1, 'Lock order wing') returning id`, [clientId]);
    const { rows: seq } = await s.db.query<{ id: number }>(`select nextval('doors_id_seq')::int id from generate_series(1, 3)`);
    const [a, x, c] = seq.map((r) => Number(r.id)).sort((p, q) => p - q);
    for (const [id, name] of [
      [c, 'Lock order C'],
      [x, 'Lock order X'],
      [a, 'Lock order A'],
    ] as const)
      await s.db.query('insert into doors (id, client_id, division_id, name) values ($1, $2, $3, $4)', [id, clientId, division, name]);
    /** The rows written again in the order c, x, a: they lie in the table in that order (each round's writes move them). */
    async function reversed(round: number) {
      for (const id of [c, x, a]) await s.db.query('update doors set name = name where id = $1', [id]);
      const inTable = await s.db.query<{ id: number }>('select id from doors where division_id = $1 order by ctid', [division]);
      expect(
        inTable.rows.map((r) => Number(r.id)),
        `round ${round}: the rows lie in the table in the other order than their ids`,
      ).toEqual([c, x, a]);
    }

    const pg = s.db.kind === 'postgres';
    for (let round = 0; round < 4; round++) {
      const on = round % 2 === 0;
      const status = on ? 'open' : 'closed';
      await reversed(round);
      // PostgreSQL: a third transaction holds door x, so that each of the two is caught midway: the lockdown holding
      // what it locked before x and waiting for x, then the batch locking its doors in id order (a, then c). Released,
      // the lockdown goes on to the doors after x. Locked in the table's order (c, x, a), it held c and then waited for
      // a, which the batch held while it waited for c: a deadlock, one of them refused
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let held: () => void = () => {};
      const holding = new Promise<void>((resolve) => (held = resolve));
      const holder = pg
        ? s.db.transaction(async (tx) => {
            await tx.query('select id from doors where id = $1 for no key update', [x]);
            held();
            await released;
          })
        : Promise.resolve(held());
      await holding;
      const lockdown = s.db.transaction((tx) => setDivisionsLockdown(tx, clientId, [division], on));
      if (pg) expect(await waitersReach(1), `round ${round}: the lockdown waits for door x`).toBe(true);
      const at = Date.now() + round * 1000;
      const batch = s.db.transaction((tx) =>
        moveDoorStatuses(tx, [
          { clientId, doorId: c, status, at },
          { clientId, doorId: a, status, at },
        ]),
      );
      if (pg) expect(await waitersReach(2), `round ${round}: the batch waits too`).toBe(true);
      release();
      const all = await Promise.allSettled([holder, lockdown, batch]);
      expect(failures(all), `round ${round} (${on ? 'lockdown' : 'release'})`).toEqual([]);

      // the lockdown changed the division's three doors, the batch the status of a and c
      const changed = (all[1] as PromiseFulfilledResult<{ id: number }[]>).value.map((r) => Number(r.id)).sort((p, q) => p - q);
      expect(changed, `round ${round}`).toEqual([a, x, c]);
      const moved = (all[2] as PromiseFulfilledResult<{ id: number }[]>).value.map((r) => r.id).sort((p, q) => p - q);
      expect(moved, `round ${round}`).toEqual([a, c]);
      const { rows } = await s.db.query<{ id: number; mode: string; status: string; before: string | null }>(
        'select id, mode, status, mode_before_lockdown before from doors where division_id = $1 order by id',
        [division],
      );
      expect(
        rows.map((r) => [Number(r.id), r.mode, r.status, r.before]),
        `round ${round}`,
      ).toEqual([
        [a, on ? 'locked-down' : 'card', status, on ? 'card' : null],
        [x, on ? 'locked-down' : 'card', 'closed', on ? 'card' : null],
        [c, on ? 'locked-down' : 'card', status, on ? 'card' : null],
      ]);
    }
  }, 120_000);
});
