// Events, alarms and door heart-beats by division (issue 10): an operator whose grant holds one division (and the
// divisions inside it) sees the events and alarms of its doors — live over STOMP and in the REST lists — and not
// those of a door elsewhere in the client; an administrator of the whole client sees both. Each stored event
// carries its source's division.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, DESTINATIONS, SOCKJS_PREFIX } from '../../contract';
import { connected, waitFor, type TestClient } from '../realtime/testkit';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let nw: string;
let northwind: number;
const consoles: TestClient[] = [];
const PASSWORD = 'Strong-pass1';

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  const admin = await s.login('admin');
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  nw = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
}, 60_000);
afterAll(async () => {
  for (const c of consoles) await c.client.deactivate({ force: true });
  await s?.close();
});

async function listening(token: string, destination: string, service: keyof typeof SOCKJS_PREFIX = 'event') {
  const c = await connected(`${s.base}${SOCKJS_PREFIX[service]}`, token);
  consoles.push(c);
  let subscribed = false;
  c.client.watchForReceipt(`r-${destination}`, () => {
    subscribed = true;
  });
  c.subscribe(destination, { receipt: `r-${destination}` });
  await waitFor(() => subscribed, `receipt ${destination}`);
  return () => c.messages.filter((m) => m.headers.destination === destination).map((m) => JSON.parse(m.body));
}

describe('events by division', () => {
  it('reach an operator of one division from its doors only, live and in the lists; a whole-client grant sees all', async () => {
    const divisions = (
      await s.db.query<{ id: number; parent_id: number | null }>('select id, parent_id from divisions where client_id = $1', [northwind])
    ).rows.map((d) => ({ id: Number(d.id), parent: d.parent_id === null ? null : Number(d.parent_id) }));
    const below = (root: number): number[] => [root, ...divisions.filter((d) => d.parent === root).flatMap((d) => below(d.id))];
    const doors = (
      await s.db.query<{ id: number; division_id: number }>('select id, division_id from doors where client_id = $1 order by id', [northwind])
    ).rows.map((d) => ({ id: Number(d.id), division: Number(d.division_id) }));
    const mine = doors.find((d) => doors.some((o) => !below(d.division).includes(o.division)))!;
    const theirs = doors.find((o) => !below(mine.division).includes(o.division))!;

    // an operator holding the alarm, event and door screens in the door's division only
    const role = await s.call('POST', API.roles, { token: nw, body: { name: 'Site watch', code: 'site-watch' } });
    await s.call('POST', `${API.roles}/${role.body.id}/assign-privileges`, {
      token: nw,
      body: { privileges: ['0.1', '0.2.1.0', '0.2.2.0', '0.4.5.0', '0.5.6.0'].map((code) => ({ code, divisionId: null })) },
    });
    const op = await s.call('POST', API.operators, { token: nw, body: { username: 'sitewatch', name: 'Site Watch', password: PASSWORD } });
    expect(op.status).toBe(201);
    expect(
      (
        await s.call('POST', API.operatorGroups, {
          token: nw,
          body: { name: 'Site watchers', members: [op.body.id], grants: [{ roleId: role.body.id, divisionId: mine.division }] },
        })
      ).status,
    ).toBe(201);
    const watch = await s.login('sitewatch', PASSWORD);

    const liveMine = await listening(watch, DESTINATIONS.events);
    const beatsMine = await listening(watch, DESTINATIONS.doorHeartbeat);
    const liveAll = await listening(nw, DESTINATIONS.events);
    const a = await s.call('POST', API.testSimulate, { token: nw, body: { kind: 'door.forced', doorId: mine.id } });
    const b = await s.call('POST', API.testSimulate, { token: nw, body: { kind: 'door.forced', doorId: theirs.id } });
    const [ea, eb] = [Number(a.body.id), Number(b.body.id)];
    expect(Number((await s.db.query<{ division_id: number }>('select division_id from events where id = $1', [ea])).rows[0].division_id)).toBe(mine.division);
    expect(Number((await s.db.query<{ division_id: number }>('select division_id from events where id = $1', [eb])).rows[0].division_id)).toBe(theirs.division);

    await waitFor(() => liveAll().some((e) => e.id === eb) && liveAll().some((e) => e.id === ea), 'the whole-client console hears both');
    await waitFor(() => liveMine().some((e) => e.id === ea), 'the division console hears its door');
    expect(liveMine().some((e) => e.id === eb)).toBe(false);
    expect(beatsMine().some((h) => Number(h.id) === theirs.id)).toBe(false);
    expect(beatsMine().some((h) => Number(h.id) === mine.id)).toBe(true);

    const listed = (await s.call('GET', `${API.events}?size=100`, { token: watch })).body.items.map((e: any) => e.id);
    expect(listed).toContain(ea);
    expect(listed).not.toContain(eb);
    const alarms = (await s.call('GET', API.alarms, { token: watch })).body.map((e: any) => e.id);
    expect(alarms).toContain(ea);
    expect(alarms).not.toContain(eb);
    const everything = (await s.call('GET', API.alarms, { token: nw })).body.map((e: any) => e.id);
    expect(everything).toEqual(expect.arrayContaining([ea, eb]));
    expect((await s.call('GET', `${API.events}?size=100`, { token: nw })).body.items.map((e: any) => e.id)).toEqual(expect.arrayContaining([ea, eb]));

    // the dashboard counts the same alarms and events as the screens behind it
    const site = below(mine.division);
    const open = (where: string, params: unknown[]) =>
      s.count(`select 1 from alarms a join events e on e.id = a.event_id where a.client_id = $1 and a.state <> 'processed' ${where}`, params);
    const mineOpen = await open('and (e.division_id is null or e.division_id = any($2::int[]))', [northwind, site]);
    const allOpen = await open('', [northwind]);
    expect(mineOpen).toBeLessThan(allOpen);
    const dash = (await s.call('GET', API.dashboard, { token: watch })).body;
    expect(dash.openAlarms).toBe(mineOpen);
    expect(dash.alarmsByPriority.reduce((n: number, p: any) => n + p.count, 0)).toBe(mineOpen);
    expect((await s.call('GET', API.dashboard, { token: nw })).body.openAlarms).toBe(allOpen);
    expect((await s.call('GET', `${API.alarms}/count`, { token: watch })).body).toEqual({ count: mineOpen });
    expect((await s.call('GET', `${API.alarms}/count`, { token: nw })).body).toEqual({ count: allOpen });
    // the live count too: each console hears the count of what it sees
    const countsMine = await listening(watch, DESTINATIONS.alarmCount);
    const countsAll = await listening(nw, DESTINATIONS.alarmCount);
    await s.call('POST', API.testSimulate, { token: nw, body: { kind: 'door.forced', doorId: theirs.id } });
    await waitFor(() => countsMine().length > 0 && countsAll().length > 0, 'the counts');
    expect(countsMine().at(-1)).toEqual({ count: mineOpen });
    expect(countsAll().at(-1)).toEqual({ count: allOpen + 1 });

    // controller heart-beats: the controllers of the operator's divisions only
    const controllers = (await s.db.query<{ id: number }>('select id from controllers where client_id = $1 order by id limit 2', [northwind])).rows.map((r) =>
      Number(r.id),
    );
    await s.db.query('update controllers set division_id = $2 where id = $1', [controllers[0], mine.division]);
    await s.db.query('update controllers set division_id = $2 where id = $1', [controllers[1], theirs.division]);
    const beats = await listening(watch, DESTINATIONS.controllerHeartbeat, 'central');
    const allBeats = await listening(nw, DESTINATIONS.controllerHeartbeat, 'central');
    await s.app.simulator.heartbeat();
    await waitFor(
      () =>
        allBeats()
          .flat()
          .some((c: any) => Number(c.id) === controllers[1]),
      'the whole client hears every controller',
    );
    await waitFor(
      () =>
        beats()
          .flat()
          .some((c: any) => Number(c.id) === controllers[0]),
      "the operator hears its division's controller",
    );
    // a second beat as a marker: once its list of the operator's controller arrives, the first beat's lists all have
    await s.app.simulator.heartbeat();
    await waitFor(
      () =>
        beats()
          .flat()
          .filter((c: any) => Number(c.id) === controllers[0]).length >= 2,
      'the second beat',
    );
    expect(
      beats()
        .flat()
        .some((c: any) => Number(c.id) === controllers[1]),
    ).toBe(false);
  });
});
