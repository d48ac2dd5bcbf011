// Controller diagnostics (issue 12): a controller found by its IP address with its status, firmware, uptime, wiring
// and latest events (its own and its doors'); ping answers while it is online and not when offline; an address of
// another client, or nobody's, is 404; a malformed one 400; without 0.5.6.4, 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, controllersResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, harbour: string, hr: string;
let northwind: number;
const D = `${controllersResource.api}/diagnostic`;

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  [admin, harbour, hr] = await Promise.all(['admin', 'harbour', 'hr'].map((u) => s.login(u)));
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  admin = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe('controller diagnostics', () => {
  it('reports a controller by its address, with its wiring and latest events; ping follows its status', async () => {
    const c = (
      await s.db.query<{ id: number; ip_address: string }>('select id, ip_address from controllers where client_id = $1 order by id limit 1', [northwind])
    ).rows[0];
    const door = Number(
      (await s.db.query<{ door_id: number }>('select door_id from card_readers where controller_id = $1 order by id limit 1', [c.id])).rows[0].door_id,
    );
    const forced = await s.call('POST', API.testSimulate, { token: admin, body: { kind: 'door.forced', doorId: door } });
    const d = await s.call('GET', `${D}/${c.ip_address}`, { token: admin });
    expect(d.status).toBe(200);
    expect(d.body.controller).toMatchObject({ id: c.id, ipAddress: c.ip_address, status: 'online', firmware: 'GH-C4 4.2.1' });
    expect(d.body.controller.onlineSince).toEqual(expect.any(String));
    expect(d.body.wiring.readers).toBeGreaterThan(0);
    expect(d.body.events.map((e: any) => e.id)).toContain(forced.body.id);
    expect(d.body.lastHeardAt).toEqual(expect.any(String));
    expect((await s.call('POST', `${D}/${c.ip_address}/ping`, { token: admin })).body).toMatchObject({ reachable: true });

    const off = await s.call('POST', API.testSimulate, { token: admin, body: { kind: 'interface.offline', controllerId: c.id } });
    expect(off.status).toBe(200);
    const after = await s.call('GET', `${D}/${c.ip_address}`, { token: admin });
    expect(after.body.controller).toMatchObject({ status: 'offline', onlineSince: null });
    expect(after.body.events[0].id).toBe(off.body.id);
    expect((await s.call('POST', `${D}/${c.ip_address}/ping`, { token: admin })).body).toMatchObject({ reachable: false, ms: null });
    await s.call('POST', API.testSimulate, { token: admin, body: { kind: 'interface.online', controllerId: c.id } });

    expect((await s.call('GET', `${D}/${c.ip_address}`, { token: harbour })).status).toBe(404);
    expect((await s.call('GET', `${D}/10.99.99.99`, { token: admin })).status).toBe(404);
    const bad = await s.call('GET', `${D}/10.1.0.300`, { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.violations[0].field).toBe('ipAddress');
    expect((await s.call('GET', `${D}/${c.ip_address}`, { token: hr })).status).toBe(403);
  });

  it('the hub lists every controller of the client with its wiring; another client’s are not in it; without 0.5.7.0, 403', async () => {
    const hub = await s.call('GET', `${controllersResource.api}/hub`, { token: admin });
    expect(hub.status).toBe(200);
    const own = (await s.db.query<{ id: number }>('select id from controllers where client_id = $1 order by id', [northwind])).rows.map((r) => r.id);
    expect(hub.body.items.map((c: { id: number }) => c.id).sort()).toEqual(own.sort());
    const first = hub.body.items.find((c: { id: number }) => c.id === own[0]);
    const readers = await s.count('select 1 from card_readers where controller_id = $1', [own[0]]);
    const outputs = await s.count('select 1 from outputs where controller_id = $1', [own[0]]);
    expect(first).toMatchObject({ firmware: 'GH-C4 4.2.1', readers, outputs });
    expect(first.doors).toBeGreaterThan(0);
    const theirs = (await s.call('GET', `${controllersResource.api}/hub`, { token: harbour })).body.items.map((c: { id: number }) => c.id);
    expect(theirs.some((id: number) => own.includes(id))).toBe(false);
    expect(theirs.length).toBeGreaterThan(0);
    expect((await s.call('GET', `${controllersResource.api}/hub`, { token: hr })).status).toBe(403);
  });
});
