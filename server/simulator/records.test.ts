// The simulator simulates exactly the hardware that exists (issue 12): a swipe happens at a card reader, on its side
// of its door; inputs and outputs are the records' own; a door, reader or input added is live at the next event
// without a restart; a door without a reader takes no swipe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EVENT_CODES, cardReadersResource, doorsResource, inputsResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { createHardwareSimulator } from './hardware';

let s: TestServer;
let admin: string;
let northwind: number;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  admin = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
}, 60_000);
afterAll(async () => {
  await s?.close();
});

/** A simulator whose random numbers are `script` first, then Math.random. */
const scripted = (script: number[]) => {
  const queue = [...script];
  return createHardwareSimulator({
    db: s.db,
    pipeline: s.app.pipeline,
    publish: () => {},
    rate: 0,
    heartbeatMs: 0,
    access: s.app.simulator.access,
    random: () => queue.shift() ?? Math.random(),
  });
};
const eventsAfter = async (id: number, where: string, params: unknown[] = []) =>
  (
    await s.db.query<{ event_code: number; event_source_id: string; event_point_id: string; swipe: any }>(
      `select event_code, event_source_id, event_point_id, swipe from events where id > $1 and ${where} order by id`,
      [id, ...params],
    )
  ).rows;
const lastId = async () => Number((await s.db.query<{ id: string }>('select coalesce(max(id), 0)::text id from events')).rows[0].id);

describe('the simulator follows the hardware records', () => {
  it('a new door with an exit reader, and a new input, take traffic at once', async () => {
    const division = Number((await s.db.query<{ id: number }>('select id from divisions where client_id = $1 order by id limit 1', [northwind])).rows[0].id);
    const controller = Number(
      (await s.db.query<{ id: number }>('select id from controllers where client_id = $1 order by id limit 1', [northwind])).rows[0].id,
    );
    const door = (await s.call('POST', doorsResource.api, { token: admin, body: { name: 'Back Gate', divisionId: division, mode: 'card' } })).body.id;
    const reader = await s.call('POST', cardReadersResource.api, {
      token: admin,
      body: { name: 'Back Gate exit reader', doorId: door, direction: 'exit', controllerId: controller, address: 7 },
    });
    expect(reader.status).toBe(201);
    const input = await s.call('POST', inputsResource.api, {
      token: admin,
      body: { name: 'Back Gate beam', kind: 'sensor', controllerId: controller, doorId: door },
    });
    expect(input.status).toBe(201);
    // the newest door and reader sort last: a swipe there (door pick, swipe branch, last reader), then the last input going active
    const sim = scripted([0, 0.1, 0.999999]);
    let from = await lastId();
    await sim.randomEvent();
    const swipes = await eventsAfter(from, `event_point_id = $2`, [`reader-${door}`]);
    expect(swipes).toHaveLength(1);
    expect(swipes[0].swipe.side).toBe('exit');
    from = await lastId();
    await scripted([0, 0.85, 0.999999, 0.3]).randomEvent();
    const beams = await eventsAfter(from, `event_source_id = $2`, [`in-${input.body.id}`]);
    expect(beams.map((e) => e.event_code)).toEqual([EVENT_CODES.inputActive]);
  });

  it('a door without a reader takes no swipe, whatever the dice say', async () => {
    const division = Number((await s.db.query<{ id: number }>('select id from divisions where client_id = $1 order by id limit 1', [northwind])).rows[0].id);
    const door = (await s.call('POST', doorsResource.api, { token: admin, body: { name: 'Sealed Door', divisionId: division, mode: 'card' } })).body.id;
    const from = await lastId();
    // the dice land on the sealed door (the newest, last) for every branch that could touch a reader
    for (const x of [0.1, 0.962, 0.97, 0.995]) await scripted([0.999999, x]).randomEvent();
    const sim = createHardwareSimulator({ db: s.db, pipeline: s.app.pipeline, publish: () => {}, rate: 0, heartbeatMs: 0, access: s.app.simulator.access });
    for (let i = 0; i < 150; i++) await sim.randomEvent();
    expect(await s.count('select 1 from events where id > $1', [from])).toBeGreaterThan(100);
    expect(await eventsAfter(from, `event_point_id = $2`, [`reader-${door}`])).toEqual([]);
    // and no random input or output event comes from anything but a record
    const io = await eventsAfter(from, `event_code in (2000, 2001, 2002, 2004, 3000, 3001)`);
    expect(io.every((e) => /^(in|out)-\d+$/.test(e.event_source_id) || e.event_code === EVENT_CODES.intrusion)).toBe(true);
  });
});
