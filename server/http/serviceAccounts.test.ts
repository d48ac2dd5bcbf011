// Service accounts (issue 11): an API key made by the server, shown once, kept hashed; it authenticates REST calls and
// STOMP connections with the account's role in its client, in a session listed on the service-account sessions screen;
// ending that session, disabling the account or revoking the key refuses the next call at once; rotating gives a new one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, API_KEY_PATTERN, DESTINATIONS, SOCKJS_PREFIX, serviceAccountsResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { authenticateApiKey } from '../auth/apiKeys';
import { stompClient, waitFor, type TestClient } from '../realtime/testkit';

const SA = serviceAccountsResource.api;
let s: TestServer;
let nw: string; // admin working in Northwind
let hb: string; // Harbour's administrator
const stomps: TestClient[] = [];

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.login('admin');
  const clients = await s.call('GET', API.clients, { token: admin });
  const northwind = clients.body.items.find((c: any) => c.code === 'NORTHWIND').id;
  nw = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
  hb = await s.login('harbour');
});
afterAll(async () => {
  for (const c of stomps) await c.client.deactivate({ force: true });
  await s.close();
});

const create = async (name: string, role = 'integration', token = nw) => {
  const r = await s.call('POST', SA, { token, body: { name, role, active: true, description: 'test' } });
  expect(r.status).toBe(201);
  return r.body as { id: number; apiKey: string; keyPrefix: string; updatedAt: string };
};
const withKey = (key: string, path: string = API.identities) => s.call('GET', `${path}?size=1`, { headers: { authorization: `Bearer ${key}` } });

describe('service accounts', () => {
  it('answers a new account with its key once; only a hash is kept and the row never shows the key again', async () => {
    const a = await create('Payroll sync');
    expect(a.apiKey).toMatch(API_KEY_PATTERN);
    expect(a.keyPrefix).toBe(`${a.apiKey.slice(0, 16)}…`);
    const again = await s.call('GET', `${SA}/${a.id}`, { token: nw });
    expect(JSON.stringify(again.body)).not.toContain(a.apiKey.slice(16));
    const kept = await s.db.query<{ key_hash: string }>('select key_hash from service_accounts where id = $1', [a.id]);
    expect(kept.rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify((await s.db.query('select * from audit_log where entity = $1', ['service account'])).rows)).not.toContain(a.apiKey.slice(16));
  });

  it('authenticates REST calls with the role in its client only, through Bearer or X-API-Key, in one listed session', async () => {
    const a = await create('Door sync 2');
    const r = await withKey(a.apiKey);
    expect(r.status).toBe(200);
    expect(r.body.items[0].employeeNo).toMatch(/^NW-/); // Northwind's identities, never Harbour's
    expect((await s.call('GET', `${API.identities}?size=1`, { headers: { 'x-api-key': a.apiKey } })).status).toBe(200);
    // the integration role may read identities but not add them
    expect((await s.call('POST', API.identities, { headers: { authorization: `Bearer ${a.apiKey}` }, body: {} })).status).toBe(403);
    const sessions = await s.call('GET', `${API.serviceAccountSessions}?q=door-sync-2`, { token: nw });
    expect(sessions.body.items).toHaveLength(1);
    expect(sessions.body.items[0]).toMatchObject({ kind: 'service', name: 'Door sync 2', state: 'open' });
    // Harbour neither sees the account nor its session
    expect((await s.call('GET', `${SA}/${a.id}`, { token: hb })).status).toBe(404);
    expect((await s.call('POST', `${SA}/${a.id}/rotate-key`, { token: hb })).status).toBe(404);
    expect((await s.call('GET', `${API.serviceAccountSessions}?q=door-sync-2`, { token: hb })).body.items).toHaveLength(0);
  });

  it('answers every one of simultaneous first uses of a new key, in one session (issue 47)', async () => {
    const a = await create('Door sync 3');
    // all at once, none answered yet: each finds no session and opens it; the ones that lose the insert use the winner's
    const answers = await Promise.all(Array.from({ length: 24 }, () => withKey(a.apiKey)));
    expect(answers.map((r) => r.status)).toEqual(Array(24).fill(200));
    const sessions = await s.call('GET', `${API.serviceAccountSessions}?q=door-sync-3`, { token: nw });
    expect(sessions.body.items).toHaveLength(1);
    // and without the request cache, as the edge's link and STOMP connections sign a key in
    const b = await create('Door sync 4');
    const direct = await Promise.all(Array.from({ length: 24 }, () => authenticateApiKey(s.db, null, b.apiKey, { ip: '', userAgent: 'test' })));
    expect(direct.filter((k) => k === null)).toHaveLength(0);
  });

  it('refuses the next call once its session is ended on the sessions screen', async () => {
    const a = await create('Ended integration');
    expect((await withKey(a.apiKey)).status).toBe(200);
    const row = (await s.call('GET', `${API.serviceAccountSessions}?q=ended-integration`, { token: nw })).body.items[0];
    expect((await s.call('POST', `${API.serviceAccountSessions}/end`, { token: nw, body: { ids: [row.id] } })).status).toBe(200);
    expect((await withKey(a.apiKey)).status).toBe(401);
  });

  it('refuses a disabled account and a revoked key at once; a rotated key replaces the old one', async () => {
    const a = await create('Visitor kiosk');
    expect((await withKey(a.apiKey)).status).toBe(200);
    const off = await s.call('PUT', `${SA}/${a.id}`, {
      token: nw,
      body: { name: 'Visitor kiosk', role: 'integration', active: false, updatedAt: a.updatedAt },
    });
    expect(off.status).toBe(200);
    expect((await withKey(a.apiKey)).status).toBe(401);
    const on = await s.call('PUT', `${SA}/${a.id}`, {
      token: nw,
      body: { name: 'Visitor kiosk', role: 'integration', active: true, updatedAt: off.body.updatedAt },
    });
    expect(on.status).toBe(200);
    expect((await withKey(a.apiKey)).status).toBe(200);

    const rotated = await s.call('POST', `${SA}/${a.id}/rotate-key`, { token: nw });
    expect(rotated.status).toBe(200);
    expect(rotated.body.apiKey).toMatch(API_KEY_PATTERN);
    expect((await withKey(a.apiKey)).status).toBe(401);
    expect((await withKey(rotated.body.apiKey)).status).toBe(200);

    const revoked = await s.call('POST', `${SA}/${a.id}/revoke-key`, { token: nw });
    expect(revoked.status).toBe(200);
    expect(revoked.body.apiKey).toBeUndefined();
    expect(revoked.body.keyRevokedAt).toBeTruthy();
    expect((await withKey(rotated.body.apiKey)).status).toBe(401);
    expect((await s.call('POST', `${SA}/${a.id}/revoke-key`, { token: nw })).status).toBe(409);
    const audit = await s.db.query<{ action: string }>(`select action from audit_log where entity = 'service account' and entity_id = $1 order by id`, [
      String(a.id),
    ]);
    expect(audit.rows.map((r) => r.action)).toEqual(['create', 'update', 'update', 'rotate-key', 'revoke-key']);
  });

  it("connects to STOMP with the key as passcode or api-key header, receiving its own client's messages", async () => {
    const a = await create('Alarm bridge', 'administrator');
    for (const headers of [{ login: 'integration', passcode: a.apiKey }, { 'api-key': a.apiKey }] as Record<string, string>[]) {
      const c = stompClient(`${s.base}${SOCKJS_PREFIX.event}`, headers);
      stomps.push(c);
      await waitFor(() => c.connected || c.errors[0], 'CONNECTED');
      expect(c.errors).toHaveLength(0);
      let ok = false;
      c.client.watchForReceipt('r1', () => {
        ok = true;
      });
      c.subscribe(DESTINATIONS.events, { receipt: 'r1' });
      await waitFor(() => ok, 'receipt');
    }
    const bad = stompClient(`${s.base}${SOCKJS_PREFIX.event}`, { passcode: `${a.apiKey.slice(0, -2)}xx` });
    stomps.push(bad);
    await waitFor(() => bad.errors[0] || bad.closed, 'refused');
    expect(bad.connected).toBeFalsy();
  });

  it('drops the live STOMP connection of a key when it is rotated or revoked (issue 11)', async () => {
    const a = await create('Door board', 'administrator');
    const connect = async (key: string) => {
      const c = stompClient(`${s.base}${SOCKJS_PREFIX.event}`, { 'api-key': key });
      stomps.push(c);
      c.client.reconnectDelay = 0; // a dropped connection stays dropped: the old key is no good any more
      await waitFor(() => c.connected || c.errors[0], 'CONNECTED');
      expect(c.errors).toHaveLength(0);
      return c;
    };
    const first = await connect(a.apiKey);
    const rotated = await s.call('POST', `${serviceAccountsResource.api}/${a.id}/rotate-key`, { token: nw });
    expect(rotated.status).toBe(200);
    await waitFor(() => first.closed, "the old key's connection dropped");
    const second = await connect(rotated.body.apiKey);
    expect((await s.call('POST', `${serviceAccountsResource.api}/${a.id}/revoke-key`, { token: nw })).status).toBe(200);
    await waitFor(() => second.closed, "the revoked key's connection dropped");
  });

  it('refuses a name already used in the client, naming the field', async () => {
    await create('Twin');
    const r = await s.call('POST', SA, { token: nw, body: { name: 'Twin', role: 'integration', active: true } });
    expect(r.status).toBe(400);
    expect(r.body.violations[0].field).toBe('name');
  });
});
