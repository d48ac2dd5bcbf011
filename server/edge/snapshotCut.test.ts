// An edge controller's snapshot cut again only where the access index changed (server/edge/snapshot.ts snapshotCutter:
// the identities the index says changed since the last cut, and the members of the access groups that came or went)
// must be exactly the whole snapshot built from scratch (buildSnapshot over an index read afresh from the database),
// hash and all. A real edge connected to the real server; a series of random changes through the REST API (people
// renamed, suspended, their cards replaced, moved between groups, made and deleted; a group's doors and members
// changed; a reader of the controller moved to another door and back); after each, the snapshot the edge holds (the hub's deltas applied, their hashes checked by the edge) is the
// whole build's, part for part. And the hub cut it whole once, then only in part.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, accessGroupsResource, cardReadersResource, controllersResource, identitiesResource, type EdgeSnapshot } from '../../contract';
import { startEdge, type Edge } from '../../edge/main';
import { until } from '../../edge/testPeers';
import { buildIndex } from '../access/index';
import { seeded } from '../testRandom';
import { startTestServer, type TestServer } from '../testkit';
import { edgeHubOf } from './index';
import { buildSnapshot } from './snapshot';

let s: TestServer;
let admin = '';
let northwind = 0;
let controller = 0;
let edge: Edge | null = null;
let dir = '';
/** the controller's doors, a door of another controller, a schedule, a division */
let doors: number[] = [];
let otherDoor = 0;
let schedule = 0;
let division = 0;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.loginTo('admin', 'NORTHWIND');
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  const c = await s.db.query<{ id: number }>(
    'select c.id from controllers c where c.client_id = $1 and exists (select 1 from card_readers r where r.controller_id = c.id) order by c.id limit 1',
    [northwind],
  );
  controller = Number(c.rows[0].id);
  doors = (await s.db.query<{ door_id: number }>('select distinct door_id from card_readers where controller_id = $1 order by door_id', [controller])).rows.map(
    (r) => Number(r.door_id),
  );
  otherDoor = Number(
    (await s.db.query<{ id: number }>('select id from doors where client_id = $1 and not (id = any($2::int[])) order by id limit 1', [northwind, doors]))
      .rows[0].id,
  );
  schedule = Number((await s.db.query<{ id: number }>('select id from schedules where client_id = $1 order by id limit 1', [northwind])).rows[0].id);
  division = Number((await s.db.query<{ id: number }>('select id from divisions where client_id = $1 order by id limit 1', [northwind])).rows[0].id);
  const made = await s.call('POST', `${controllersResource.api}/${controller}/edge-key`, { token: admin, body: {} });
  expect(made.status).toBe(200);
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-cut-'));
  edge = startEdge({ server: s.base, key: made.body.apiKey, dataDir: dir, log: () => {} });
}, 60_000);
afterAll(async () => {
  edge?.stop();
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The parts of two snapshots that differ (their names). */
const differing = (a: EdgeSnapshot, b: EdgeSnapshot) => (Object.keys(b) as (keyof EdgeSnapshot)[]).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));

/** Until the edge holds the whole build's snapshot (the index read afresh); else the parts that differ. */
async function heldIsWhole(step: string) {
  const end = Date.now() + 8_000;
  for (;;) {
    const held = edge!.store.held;
    const name = held?.snapshot.controllerName ?? '';
    const whole = await buildSnapshot(s.db, await buildIndex(s.db, northwind), { id: controller, name, clientId: northwind });
    if (held && held.hash === whole.hash) return whole;
    if (Date.now() > end) {
      expect(held ? differing(held.snapshot, whole.snapshot) : 'no snapshot held', step).toEqual([]);
      expect(held?.hash, step).toBe(whole.hash);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("an edge controller's snapshot cut again where the index changed", () => {
  it('is the whole build, hash and all, after each of a series of random changes through the API', async () => {
    await until('the edge online with a snapshot', () => edge!.link.online && edge!.store.held, 20_000);
    // two groups that open the controller's doors, one that opens another door only
    const group = async (name: string, opens: number[]) => {
      const r = await s.call('POST', accessGroupsResource.api, {
        token: admin,
        body: { name, description: null, doors: opens.map((doorId) => ({ doorId, scheduleId: schedule })), members: [] },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return Number(r.body.id);
    };
    const groups = [await group('Cut A', [doors[0]]), await group('Cut B', doors), await group('Cut elsewhere', [otherDoor])];
    const rnd = seeded(Number(process.env.CUT_SEED ?? 47));
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
    const someOf = <T>(list: readonly T[]) => list.filter(() => rnd() < 0.5);
    let cardNo = 0;
    const cards = () => Array.from({ length: Math.floor(rnd() * 3) }, () => ({ type: 'card', number: `CUT-${++cardNo}`, status: 'active' }));
    const people: number[] = [];
    const writable = Object.entries(identitiesResource.fields)
      .filter(([, f]) => !(f as { readOnly?: boolean }).readOnly)
      .map(([f]) => f);
    const create = async () => {
      const n = people.length + cardNo;
      const r = await s.call('POST', API.identities, {
        token: admin,
        body: {
          firstName: 'Cut',
          lastName: `Person ${n}`,
          employeeNo: `CUT-P${n}-${Math.floor(rnd() * 1e6)}`,
          divisionId: division,
          status: 'active',
          credentials: cards(),
          accessGroupIds: someOf(groups),
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      people.push(Number(r.body.id));
    };
    const edit = async (id: number, change: Record<string, unknown>) => {
      const got = (await s.call('GET', `${API.identities}/${id}`, { token: admin })).body;
      const body = { ...Object.fromEntries(writable.map((f) => [f, got[f] ?? null])), ...change };
      const r = await s.call('PUT', `${API.identities}/${id}`, { token: admin, body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    const editGroup = async (id: number, change: Record<string, unknown>) => {
      const got = (await s.call('GET', `${accessGroupsResource.api}/${id}`, { token: admin })).body;
      const body = { name: got.name, description: got.description ?? null, doors: got.doors, members: got.members, ...change };
      const r = await s.call('PUT', `${accessGroupsResource.api}/${id}`, { token: admin, body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    let movedFrom = 0;
    for (let i = 0; i < 6; i++) await create();
    await heldIsWhole('the people made');
    const hub = edgeHubOf.get(s.app)!;
    const cutsBefore = hub.connected().find((c) => c.controllerId === controller)!.cuts;
    const ops: [string, () => Promise<void>][] = [
      ['renamed', () => edit(pick(people), { lastName: `Renamed ${Math.floor(rnd() * 1e6)}` })],
      ['suspended or active', () => edit(pick(people), { status: rnd() < 0.5 ? 'suspended' : 'active' })],
      ['cards replaced', () => edit(pick(people), { credentials: cards() })],
      ['groups changed', () => edit(pick(people), { accessGroupIds: someOf(groups) })],
      ['made', create],
      [
        'deleted',
        async () => {
          if (people.length < 3) return create();
          const id = people.splice(Math.floor(rnd() * people.length), 1)[0];
          const r = await s.call('DELETE', `${API.identities}/${id}`, { token: admin });
          expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
        },
      ],
      // the group's doors: now one of the controller's, now another controller's only (its members come and go)
      ['a group opens other doors', () => editGroup(groups[2], { doors: [{ doorId: rnd() < 0.5 ? doors[0] : otherDoor, scheduleId: schedule }] })],
      ["a group's members", () => editGroup(pick(groups), { members: someOf(people) })],
      // one of the controller's readers moved to another door and back (the index alone does not change: the groups of
      // the controller's doors do, and the members of the one that came or went)
      [
        'a reader moved',
        async () => {
          const reader = Number(
            (await s.db.query<{ id: number }>('select id from card_readers where controller_id = $1 order by id desc limit 1', [controller])).rows[0].id,
          );
          const path = `${cardReadersResource.api}/${reader}`;
          const got = (await s.call('GET', path, { token: admin })).body;
          const fields = Object.entries(cardReadersResource.fields)
            .filter(([, f]) => !(f as { readOnly?: boolean }).readOnly)
            .map(([f]) => f);
          const body = { ...Object.fromEntries(fields.map((f) => [f, got[f] ?? null])), doorId: got.doorId === otherDoor ? movedFrom : otherDoor };
          if (got.doorId !== otherDoor) movedFrom = got.doorId;
          const r = await s.call('PUT', path, { token: admin, body });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
        },
      ],
    ];
    for (let step = 0; step < 30; step++) {
      const [what, run] = pick(ops);
      await run();
      const whole = await heldIsWhole(`step ${step}: ${what}`);
      if (step === 0) expect(whole.snapshot.members.length).toBeGreaterThan(0);
    }
    // cut whole once as the edge connected; after that only in part, each time for a few people
    const cuts = hub.connected().find((c) => c.controllerId === controller)!.cuts;
    expect(cuts.full).toBe(cutsBefore.full);
    expect(cuts.partial - cutsBefore.partial).toBeGreaterThanOrEqual(8);
    expect((cuts.people - cutsBefore.people) / (cuts.partial - cutsBefore.partial)).toBeLessThan(10);
  }, 180_000);
});
