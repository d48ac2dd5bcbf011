// A server whose database is restored from a backup (Server → Backup and restore) while its edges keep running
// (issue 47): the restored database has fewer of an edge's events than the edge was told were stored, and an older
// snapshot number than the edge holds. Before 2026-12-04 the server refused every later event of that edge as a gap,
// for ever, and the edge refused every snapshot as stale until the count passed the one it held: no event reached the
// consoles and no change made on the console reached its doors. Now the edge sends again what the server lost and the
// server numbers its snapshots on from the edge's. The restore is the database put back as it was at the backup (the
// rows the backup did not have removed, the controller's numbers put back) and the server started again on it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { doorsResource } from '../contract';
import { buildServer } from '../server/app';
import { startTestServer, type TestServer } from '../server/testkit';
import { edgeOfFirstController, proxyTo, until, type EdgeFixture } from './testPeers';

let s: TestServer;
let f: EdgeFixture;
let restarted: Awaited<ReturnType<typeof buildServer>> | null = null;
beforeAll(async () => {
  s = await startTestServer();
  f = await edgeOfFirstController(s);
}, 60_000);
afterAll(async () => {
  for (const e of f?.edges ?? []) e.stop();
  await restarted?.close();
  await s?.close(); // (its app is closed already) the database closed, and dropped on PostgreSQL
});

const storedSeqs = async () =>
  (
    await s.db.query<{ seq: number }>(
      `select (swipe->'edge'->>'seq')::int as seq from events where swipe->'edge' is not null and client_id = $1 and event_source_id = $2 order by 1`,
      [f.northwind, `reader-${f.door}`],
    )
  ).rows.map((r) => r.seq);

it('after a restore, the edge sends again the events the server lost, and the changes made after it reach its doors', async () => {
  const proxy = await proxyTo(Number(new URL(s.base).port));
  const logs: string[] = [];
  const edge = f.edge({ server: proxy.url(), log: (l) => logs.push(l) });
  await until('online', () => edge.link.online && edge.store.held);
  await until('nothing left to send', () => edge.journal.pendingCount() === 0);
  const already = edge.journal.lastSeq;
  edge.swipe({ doorId: f.door, card: '9200001' });
  edge.swipe({ doorId: f.door, card: '9200002' });
  await until('the two stored', async () => (await storedSeqs()).includes(already + 2));
  // the backup: the controller's numbers as they are now
  const backup = (
    await s.db.query<{ last_seq: string; snapshot_version: string; snapshot_hash: string }>(
      'select last_seq::text, snapshot_version::text, snapshot_hash from edge_controllers where controller_id = $1',
      [f.controller],
    )
  ).rows[0];
  expect(Number(backup.last_seq)).toBe(already + 2);
  // after the backup: a change on the console (a new snapshot at the edge) and three more swipes, stored
  const door = (await s.call('GET', `${doorsResource.api}/${f.door}`, { token: f.admin })).body;
  const body = Object.fromEntries(Object.keys(doorsResource.fields).map((k) => [k, door[k] ?? null]));
  expect((await s.call('PUT', `${doorsResource.api}/${f.door}`, { token: f.admin, body: { ...body, degradedPolicy: 'locked' } })).status).toBe(200);
  await until('the change at the edge', () => edge.store.held?.snapshot.doors.find((d) => d.id === f.door)?.degraded === 'locked');
  const heldBefore = edge.store.held!.version;
  expect(heldBefore).toBeGreaterThan(Number(backup.snapshot_version));
  for (const card of ['9200003', '9200004', '9200005']) edge.swipe({ doorId: f.door, card });
  await until('all five stored', async () => (await storedSeqs()).includes(already + 5));

  // the restore: the server stops, its database is put back as the backup had it, and it starts again on it
  await s.app.close();
  await s.db.query(`delete from events where swipe->'edge' is not null and client_id = $1 and event_source_id = $2 and (swipe->'edge'->>'seq')::int > $3`, [
    f.northwind,
    `reader-${f.door}`,
    Number(backup.last_seq),
  ]);
  await s.db.query('update edge_controllers set last_seq = $2, snapshot_version = $3, snapshot_hash = $4 where controller_id = $1', [
    f.controller,
    backup.last_seq,
    backup.snapshot_version,
    backup.snapshot_hash,
  ]);
  await s.db.query('update doors set degraded_policy = $2 where id = $1', [f.door, body.degradedPolicy ?? 'keep']);
  restarted = await buildServer({
    db: s.db,
    jwtSecret: 'test-secret-of-enough-length',
    staticDir: null,
    rateLimit: { max: 100_000, windowMs: 60_000 },
  });
  await restarted.listen({ port: 0, host: '127.0.0.1' });
  const address = restarted.server.address();
  proxy.to(typeof address === 'object' && address ? address.port : 0);

  // the edge reconnects: what the server lost is stored again, once and in order, and what came after too
  await until('online again', () => edge.link.online, 30_000);
  edge.swipe({ doorId: f.door, card: '9200006' });
  const all = await until(
    'every event stored again',
    async () => {
      const seqs = await storedSeqs();
      return seqs.includes(already + 6) ? seqs : null;
    },
    30_000,
  );
  expect(all.filter((n) => n > already)).toEqual([1, 2, 3, 4, 5, 6].map((n) => already + n));
  expect(logs.some((l) => /fewer than it acknowledged \(a restored database\): 3 sent again/.test(l))).toBe(true);
  // its snapshots are numbered on from the one the edge holds: a change after the restore reaches the door
  await until('a snapshot newer than the one it held', () => (edge.store.held?.version ?? 0) > heldBefore, 30_000);
  const back = await restarted.inject({
    method: 'PUT',
    url: `${doorsResource.api}/${f.door}`,
    headers: { authorization: `Bearer ${f.admin}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ ...body, degradedPolicy: 'facility' }),
  });
  expect(back.statusCode).toBe(200);
  await until('the change after the restore at the edge', () => edge.store.held?.snapshot.doors.find((d) => d.id === f.door)?.degraded === 'facility', 30_000);
  proxy.close();
}, 180_000);
