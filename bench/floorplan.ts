// The site at any moment (issue 50): Monitor → Floor plan's time slider rebuilds a past moment from the stored events
// (GET …/floor-plans/:id/at?t=, server/db/queries/floorPlanHistory.ts). The demo data scaled: a fresh PGlite with the
// demo tenants, Harbour Health given 2,000 identities (BENCH_FLOORPLAN_IDENTITIES) and 1,000,000 events
// (BENCH_FLOORPLAN_ROWS) over the last 30 days in the demo's shape on its demo floor plan's doors: granted swipes of
// those people into and out of two access zones, denials, the doors' states, heart-beats, and an alarm for about one forced
// door in 47 (acknowledged and processed minutes later, the last ones still open). Then moments spread over the 30 days
// are rebuilt through the real HTTP endpoint as Harbour's administrator (every part: doors, alarms, threat level,
// zones), and a day's alarms to jump to are listed → bench/results/floorplan.json. Target: p95 < 1 s per moment.
import { EVENT_CODES, floorPlansResource } from '../contract';
import { FLOOR_PLAN_HISTORY_MS } from '../contract/floorPlanHistory';
import { vacuum } from '../server/db/maintenance';
import { benchDb, benchServer, seedIdentities, timed, writeResult } from './lib';
import type { Db } from '../server/db/db';

export const FLOOR_PLAN_MOMENT_TARGET_MS = 1000;

/** The scaled demo history of `clientId`'s floor plan `planId` (its pinned doors), `count` events in the last 30 days. */
export async function seedHistory(db: Db, clientId: number, doorIds: number[], count: number, end: number) {
  const t = Date.now();
  const { rows: people } = await db.query<{ id: number }>('select id from identities where client_id = $1 order by id', [clientId]);
  const ids = people.map((p) => Number(p.id));
  const start = end - FLOOR_PLAN_HISTORY_MS + 60_000;
  const stepMs = (FLOOR_PLAN_HISTORY_MS - 120_000) / count;
  const batch = 200_000;
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    // k = g % 20: 0-11 a granted swipe (entry or exit by turns), 12-13 a denial, 14-17 a door state, 18-19 a heart-beat
    await db.query(
      `insert into events (client_id, event_code, event_source_id, event_point_id, message, alert, priority, at, identity_id, swipe)
       select $1, c.code, case when c.k < 14 then 'reader-' || c.door else 'door-' || c.door end,
         case when c.k < 14 then 'reader-' || c.door else 'door-' || c.door end, 'Bench event ' || g,
         c.code = ${EVENT_CODES.doorForcedOpen}, case when c.code = ${EVENT_CODES.doorForcedOpen} then 10 else 100 end,
         to_timestamp(($5::float8 + g * $6::float8) / 1000), case when c.k < 12 then c.person end,
         case when c.k < 12 then jsonb_build_object('doorId', c.door, 'side', case when (g / 20) % 2 = 0 then 'entry' else 'exit' end, 'card', 'EL-' || c.person) end
       from generate_series($2::int, $3::int) g
       cross join lateral (select g % 20 k, ($4::int[])[1 + (g / 7) % array_length($4::int[], 1)] door, ($7::int[])[1 + (g / 20) % array_length($7::int[], 1)] person,
         case when g % 20 < 12 then ${EVENT_CODES.accessGranted} when g % 20 < 14 then ${EVENT_CODES.deniedNoAccessGroup}
              when g % 20 < 18 then (array[6000, 6003, 6004, 6001, 6002, 6005])[1 + (g / 20) % 6] else 1000 end code) c`,
      [clientId, from, to, doorIds, start, stepMs, ids],
    );
    console.log(`  seeded ${to.toLocaleString()} events (${Math.round((Date.now() - t) / 1000)} s)`);
  }
  // about one forced door in 47 raised an alarm: acknowledged after 2 minutes, processed after 5, the last day's still open
  await db.query(
    `insert into alarms (event_id, client_id, event_code, event_point_id, priority, state, raised_at, acknowledged_at, processed_at)
     select e.id, e.client_id, e.event_code, e.event_point_id, 10, case when e.at > $2 then 'raised' else 'processed' end, e.at,
       case when e.at > $2 then null else e.at + interval '2 minutes' end, case when e.at > $2 then null else e.at + interval '5 minutes' end
     from events e where e.client_id = $1 and e.event_code = ${EVENT_CODES.doorForcedOpen} and e.id % 47 = 0`,
    [clientId, new Date(end - 24 * 3600_000).toISOString()],
  );
  const { rows: n } = await db.query<{ n: string }>('select count(*)::text n from alarms where client_id = $1', [clientId]);
  return { seconds: Math.round((Date.now() - t) / 100) / 10, identities: ids.length, alarms: Number(n[0].n) };
}

export async function floorplanBench(rows = Number(process.env.BENCH_FLOORPLAN_ROWS ?? 1_000_000)) {
  const b = await benchDb();
  const server = await benchServer(b.db);
  try {
    const client = b.harbour;
    await seedIdentities(b.db, client, Number(process.env.BENCH_FLOORPLAN_IDENTITIES ?? 2000));
    const { rows: plans } = await b.db.query<{ id: number }>(`select id from floor_plans where client_id = $1 and name = 'Head office, ground floor'`, [
      client,
    ]);
    const planId = Number(plans[0].id);
    const { rows: pins } = await b.db.query<{ door_id: number }>('select door_id from floor_plan_doors where floor_plan_id = $1 order by door_id', [planId]);
    const doorIds = pins.map((p) => Number(p.door_id));
    // two access zones: the plan's doors lead into one or the other (and out to no zone)
    const zone = async (name: string) =>
      Number((await b.db.query<{ id: number }>('insert into access_zones (client_id, name) values ($1, $2) returning id', [client, name])).rows[0].id);
    const zones = [await zone('Bench wards'), await zone('Bench theatres')];
    for (const [i, d] of doorIds.entries()) await b.db.query('update doors set entry_zone_id = $2 where id = $1', [d, zones[i % 2]]);
    const end = Date.now();
    console.log(`floorplan: seeding ${rows.toLocaleString()} events over 30 days on ${doorIds.length} doors`);
    const seeded = await seedHistory(b.db, client, doorIds, rows, end);
    await b.db.exec('analyze events; analyze alarms; analyze audit_log');
    const token = await server.login('harbour');
    const PLAN = `${floorPlansResource.api}/${planId}`;
    const n = 100;
    // moments spread over the 30 days (a prime stride, so neighbours are far apart), oldest first never twice
    const moment = (i: number) => new Date(end - 120_000 - ((i * 7919) % n) * ((FLOOR_PLAN_HISTORY_MS - 300_000) / n)).toISOString();
    const sample = JSON.parse(await server.get(`${PLAN}/at?t=${encodeURIComponent(moment(n / 2))}`, token)) as Record<string, any>;
    const shape = {
      doors: sample.doors?.length,
      doorsWithState: sample.doors?.filter((d: any) => d.status).length,
      openAlarms: sample.alarms?.length,
      people: (sample.zones ?? []).reduce((s: number, z: any) => s + z.people.length, 0),
    };
    const measure = async () => ({
      'one moment (GET …/at?t=)': await timed(n, (i) => server.get(`${PLAN}/at?t=${encodeURIComponent(moment(i))}`, token)),
      "a day's alarms to jump to (GET …/alarms)": await timed(n / 2, (i) => {
        const to = Date.parse(moment(i));
        const from = new Date(Math.max(to - 24 * 3600_000, Date.now() - FLOOR_PLAN_HISTORY_MS + 60_000)).toISOString();
        return server.get(`${PLAN}/alarms?from=${encodeURIComponent(from)}&to=${encodeURIComponent(moment(i))}`, token);
      }),
    });
    console.log('floorplan: measuring as stored');
    const stored = await measure();
    console.log('floorplan: measuring after the maintenance VACUUM');
    await vacuum(b.db);
    const maintained = await measure();
    const p95 = maintained['one moment (GET …/at?t=)'].p95;
    return writeResult('floorplan', {
      database: b.db.kind,
      storedEvents: rows,
      seeded,
      measuredThrough: `GET ${floorPlansResource.api}/:id/at?t= over loopback HTTP as Harbour's administrator (every part of the answer)`,
      'a moment in the middle of the 30 days': shape,
      'as stored (ms)': stored,
      'after the maintenance VACUUM (ms)': maintained,
      target: { metric: 'p95 of one moment of the last 30 days rebuilt, on a maintained database', lessThanMs: FLOOR_PLAN_MOMENT_TARGET_MS },
      momentP95Ms: p95,
      met: p95 < FLOOR_PLAN_MOMENT_TARGET_MS,
    });
  } finally {
    await server.close();
    await b.dispose();
  }
}
