// Gatehouse Edge: what an identity's change costs the snapshots of the connected edge controllers (server/edge/snapshot.ts).
// A tenant of BENCH_EDGE_SNAPSHOT_IDENTITIES (200,000) identities with a card each, 1 in 100 of them members of an access
// group that opens the doors of every controller with card readers (BENCH_EDGE_SNAPSHOT_EDGES at most, 4); the tenant's
// access index as the server keeps it (createAccessIndexes: an identity's change patches it). For each of
// BENCH_EDGE_SNAPSHOT_CHANGES (100) identities, one after another (every other one a member): its name changed in the
// database, the index patched, then every controller's snapshot cut by the hub's cutter (snapshotCutter: what changed
// since its last cut) and, as the reference of the same run, built whole (buildSnapshot: every member and credential of
// the tenant walked), in alternating order; the two hashes must be equal. ms for all the controllers of one change.
// Judged as a ratio of the same run (docs/BENCHMARKS.md): the cut's p50 at least TARGET_RATIO times faster than the
// whole build's, and every hash equal. `npm run bench -- edgeSnapshot` (bench/results/edgeSnapshot.json), or
// `npx tsx bench/edgeSnapshot.ts` alone.
import { performance } from 'node:perf_hooks';
import { createAccessIndexes } from '../server/access/index';
import { buildSnapshot, snapshotCutter } from '../server/edge/snapshot';
import { benchDb, seedIdentities, summary, writeResult } from './lib';

const IDENTITIES = Number(process.env.BENCH_EDGE_SNAPSHOT_IDENTITIES) || 200_000;
const EDGES = Number(process.env.BENCH_EDGE_SNAPSHOT_EDGES) || 4;
const CHANGES = Number(process.env.BENCH_EDGE_SNAPSHOT_CHANGES) || 100;
/** whole build p50 ÷ cut p50 at least this, in the same run */
const TARGET_RATIO = 5;

export async function edgeSnapshotBench() {
  const bench = await benchDb();
  const { db, harbour: clientId } = bench;
  try {
    await seedIdentities(db, clientId, IDENTITIES);
    const controllers = (
      await db.query<{ id: number; name: string }>(
        'select c.id, c.name from controllers c where c.client_id = $1 and exists (select 1 from card_readers r where r.controller_id = c.id) order by c.id limit $2',
        [clientId, EDGES],
      )
    ).rows.map((r) => ({ id: Number(r.id), name: r.name, clientId }));
    const schedule = Number((await db.query<{ id: number }>('select id from schedules where client_id = $1 order by id limit 1', [clientId])).rows[0].id);
    const group = Number(
      (await db.query<{ id: number }>(`insert into access_groups (client_id, name) values ($1, 'Bench edge snapshot') returning id`, [clientId])).rows[0].id,
    );
    await db.query(
      `insert into access_group_doors (access_group_id, door_id, schedule_id, client_id)
       select distinct $1::int, r.door_id, $2::int, $4::int from card_readers r where r.controller_id = any($3::int[])`,
      [group, schedule, controllers.map((c) => c.id), clientId],
    );
    await db.query(
      `insert into access_group_members (access_group_id, identity_id) select $1, id from identities where client_id = $2 and employee_no like 'EL-%' and id % 100 = 0`,
      [group, clientId],
    );
    const people = (
      await db.query<{ id: number }>(`select id from identities where client_id = $1 and employee_no like 'EL-%' order by id limit $2`, [
        clientId,
        CHANGES * 100,
      ])
    ).rows.map((r) => Number(r.id));
    const members = people.filter((id) => id % 100 === 0);
    const others = people.filter((id) => id % 100 !== 0);
    const indexes = createAccessIndexes(db, { debounceMs: 0 });
    let index = await indexes.get(clientId);
    const cutters = controllers.map((c) => ({ c, cut: snapshotCutter(db, indexes, c) }));
    let held = 0;
    for (const { c, cut } of cutters) held = (await cut.build(index, c.name)).snapshot.members.length;
    console.log(`  ${IDENTITIES.toLocaleString()} identities, ${controllers.length} edge controllers, ${held.toLocaleString()} members in each snapshot`);
    const incremental: number[] = [];
    const whole: number[] = [];
    let mismatches = 0;
    for (let i = 0; i < CHANGES; i++) {
      const id = i % 2 ? others[i] : members[i >> 1];
      await db.query(`update identities set last_name = $2 where id = $1`, [id, `Changed ${i}`]);
      indexes.changed(clientId, { resource: 'identities', id });
      index = await indexes.get(clientId);
      const cuts: string[] = [];
      const builds: string[] = [];
      const runCuts = async () => {
        const t = performance.now();
        for (const { c, cut } of cutters) cuts.push((await cut.build(index, c.name)).hash);
        incremental.push(performance.now() - t);
      };
      const runWhole = async () => {
        const t = performance.now();
        for (const { c } of cutters) builds.push((await buildSnapshot(db, index, c)).hash);
        whole.push(performance.now() - t);
      };
      if (i % 2) {
        await runWhole();
        await runCuts();
      } else {
        await runCuts();
        await runWhole();
      }
      if (cuts.join() !== builds.join()) {
        mismatches++;
        console.log(`  change ${i}: the cut snapshot is not the whole build's`);
      }
      await new Promise((r) => setImmediate(r)); // as between two requests (a fold's slices run)
    }
    indexes.stop();
    const round = (s: ReturnType<typeof summary>) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, Math.round(v * 100) / 100]));
    const a = round(summary(incremental));
    const b = round(summary(whole));
    console.log(`  an identity's change, all ${controllers.length} snapshots cut (ms): ${JSON.stringify(a)}`);
    console.log(`  the same built whole, reference (ms): ${JSON.stringify(b)}`);
    const ratio = { wholeToCutP50: Math.round((b.p50 / a.p50) * 10) / 10, wholeToCutP95: Math.round((b.p95 / a.p95) * 10) / 10 };
    console.log(`  whole ÷ cut: p50 ${ratio.wholeToCutP50}x, p95 ${ratio.wholeToCutP95}x`);
    console.log(`  cutters: ${JSON.stringify(cutters.map((x) => x.cut.stats))}`);
    writeResult('edgeSnapshot', {
      identities: IDENTITIES,
      edgeControllers: controllers.length,
      membersPerSnapshot: held,
      changes: CHANGES,
      cutMs: a,
      reference: { wholeBuildMs: b },
      ratio,
      hashMismatches: mismatches,
      cutters: cutters.map((x) => x.cut.stats),
      target: { wholeToCutP50AtLeast: TARGET_RATIO, hashMismatches: 0 },
      met: b.p50 / a.p50 >= TARGET_RATIO && mismatches === 0,
    });
  } finally {
    await bench.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  edgeSnapshotBench().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
