// Web hooks (issue 11): a subscription per client and event type; deliveries come from a durable outbox written in
// the event's own transaction, are signed with HMAC-SHA256 over "<timestamp>.<body>", retried with backoff until the
// receiver takes them, every attempt recorded for the histories screen, and can be redelivered.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EVENT_CODES, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER, webHooksResource } from '../../contract';
import { buildServer } from '../app';
import { startTestServer, type TestServer } from '../testkit';
import { waitFor } from '../realtime/testkit';
import { verifySignature } from './sign';

const HOOKS = webHooksResource.api;
const SECRET = 'a-secret-of-some-length-1234';
const FAST = { pollMs: 30, backoffMs: () => 60, timeoutMs: 1500 };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}
/** A receiver the test runs: answers each request with the next status of its path's script (200 when none is left). */
async function receiver() {
  const got: Received[] = [];
  const script = new Map<string, number[]>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      got.push({ headers: req.headers, body, path: req.url ?? '' });
      const status = script.get(req.url ?? '')?.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'thanks' : 'x'.repeat(2000));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { got, script, url: (path: string) => `http://127.0.0.1:${port}${path}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let s: TestServer;
let rx: Awaited<ReturnType<typeof receiver>>;
let nw: string, hb: string, northwind: number;

beforeAll(async () => {
  rx = await receiver();
  s = await startTestServer({ webhooks: FAST });
  const admin = await s.login('admin');
  const clients = (await s.call('GET', API.clients, { token: admin })).body.items;
  northwind = clients.find((c: any) => c.code === 'NORTHWIND').id;
  nw = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
  hb = await s.login('harbour');
});
afterAll(async () => {
  await s?.close();
  await rx?.close();
});

async function hook(name: string, path: string, events: Record<string, boolean>, token = nw) {
  const r = await s.call('POST', HOOKS, { token, body: { name, url: rx.url(path), secret: SECRET, active: true, ...events } });
  expect(r.status).toBe(201);
  return r.body.id as number;
}
const alarm = (clientId: number, point: string) =>
  s.app.pipeline.record(clientId, {
    eventCode: EVENT_CODES.doorForcedOpen,
    sourceId: point,
    sourceName: 'Server Room',
    pointId: point,
    message: 'Door forced open',
  });
const at = (path: string) => rx.got.filter((g) => g.path === path);

describe('web hooks', () => {
  it("sends a raised alarm to its client's subscribers only, signed over timestamp and body", async () => {
    await hook('Alarm desk', '/alarms', { alarmRaised: true });
    await hook('Harbour desk', '/harbour', { alarmRaised: true }, hb);
    const e = await alarm(northwind, 'door-wh-1');
    const [d] = await waitFor(() => at('/alarms').length >= 1 && at('/alarms'), 'the delivery');
    const body = JSON.parse(d.body);
    expect(body).toMatchObject({ type: 'alarm.raised', clientId: northwind, data: { eventId: e.id, pointId: 'door-wh-1', state: 'raised' } });
    expect(d.headers[WEBHOOK_SIGNATURE_HEADER]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature(SECRET, String(d.headers[WEBHOOK_TIMESTAMP_HEADER]), d.body, String(d.headers[WEBHOOK_SIGNATURE_HEADER]))).toBe(true);
    expect(verifySignature('another-secret-entirely', String(d.headers[WEBHOOK_TIMESTAMP_HEADER]), d.body, String(d.headers[WEBHOOK_SIGNATURE_HEADER]))).toBe(
      false,
    );
    expect(
      verifySignature(
        SECRET,
        String(d.headers[WEBHOOK_TIMESTAMP_HEADER]),
        d.body.replace('door-wh-1', 'door-wh-2'),
        String(d.headers[WEBHOOK_SIGNATURE_HEADER]),
      ),
    ).toBe(false);
    // Harbour's hook hears nothing of Northwind. Not a sleep: an alarm of Harbour's own, raised after Northwind's was
    // delivered, reaches it; a delivery of Northwind's alarm to it would have been queued before that one
    const harbourId = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'HARBOUR'`)).rows[0].id);
    const theirs = await alarm(harbourId, 'door-hb-1');
    await waitFor(() => at('/harbour').length >= 1, "the delivery of Harbour's own alarm");
    expect(at('/harbour').map((g) => JSON.parse(g.body))).toEqual([
      expect.objectContaining({ clientId: harbourId, data: expect.objectContaining({ eventId: theirs.id }) }),
    ]);
  });

  it('retries a failing receiver with backoff until it takes the delivery, recording every attempt', async () => {
    rx.script.set('/flaky', [500, 503]);
    const id = await hook('Flaky receiver', '/flaky', { alarmRaised: true });
    await alarm(northwind, 'door-wh-3');
    await waitFor(() => at('/flaky').length >= 3, 'three attempts', 10_000);
    // the same delivery each time, each signed afresh
    expect(new Set(at('/flaky').map((g) => JSON.parse(g.body).deliveryId)).size).toBe(1);
    let h = await s.call('GET', `${HOOKS}/${id}/attempts`, { token: nw });
    for (let i = 0; i < 100 && h.body.items?.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 30));
      h = await s.call('GET', `${HOOKS}/${id}/attempts`, { token: nw });
    }
    expect(h.status).toBe(200);
    expect(h.body.items.map((a: any) => [a.attempt, a.status, a.ok])).toEqual([
      [3, 200, true],
      [2, 503, false],
      [1, 500, false],
    ]);
    expect(h.body.items[1].response.length).toBe(500); // bounded excerpt
    expect(h.body.items[0].deliveryState).toBe('delivered');
    expect(h.body.items.every((a: any) => a.latencyMs >= 0)).toBe(true);
    const failed = await s.call('GET', `${HOOKS}/${id}/attempts?outcome=failed`, { token: nw });
    expect(failed.body.total).toBe(2);
    // another client's operator: not found
    expect((await s.call('GET', `${HOOKS}/${id}/attempts`, { token: hb })).status).toBe(404);

    // redeliver sends it once more, audited
    const deliveryId = h.body.items[0].deliveryId;
    const again = await s.call('POST', `${HOOKS}/${id}/redeliver`, { token: nw, body: { deliveryId } });
    expect(again.status).toBe(200);
    await waitFor(() => at('/flaky').length >= 4, 'the redelivery');
    expect((await s.call('POST', `${HOOKS}/${id}/redeliver`, { token: nw, body: { deliveryId: 999999 } })).status).toBe(404);
    expect((await s.call('POST', `${HOOKS}/${id}/redeliver`, { token: hb, body: { deliveryId } })).status).toBe(404);
  });

  it('tells a subscriber about identity changes and access events, written in the same transaction', async () => {
    await hook('HR feed', '/hr', { identityChanged: true, accessGranted: true });
    const division = (await s.call('GET', `${API.identities}?size=1`, { token: nw })).body.items[0].divisionId;
    const r = await s.call('POST', API.identities, {
      token: nw,
      body: { firstName: 'Web', lastName: 'Hook', employeeNo: 'NW-WH001', divisionId: division, credentials: [] },
    });
    expect(r.status).toBe(201);
    await s.app.pipeline.record(northwind, { eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-wh', sourceName: null, message: 'Access granted' });
    await waitFor(() => at('/hr').some((g) => JSON.parse(g.body).type === 'access.granted'), 'access granted');
    const changed = await waitFor(() => at('/hr').find((g) => JSON.parse(g.body).type === 'identity.changed'), 'identity changed');
    expect(JSON.parse(changed.body).data).toMatchObject({ identityId: String(r.body.id), action: 'create', after: { lastName: 'Hook' } });
  });

  it('keeps the signing secret to itself: never answered or exported, required on create, kept by an update without it', async () => {
    const none = await s.call('POST', HOOKS, { token: nw, body: { name: 'No secret', url: rx.url('/none'), active: true, alarmRaised: true } });
    expect(none.status).toBe(400);
    expect(none.body.violations).toEqual([{ field: 'secret', message: 'is required', code: 'value.required', values: {} }]);
    const id = await hook('Quiet desk', '/quiet', { alarmRaised: true });
    const one = await s.call('GET', `${HOOKS}/${id}`, { token: nw });
    expect(one.body).not.toHaveProperty('secret');
    expect(JSON.stringify((await s.call('GET', `${HOOKS}?size=100`, { token: nw })).body)).not.toContain(SECRET);
    expect(String((await s.call('GET', `${HOOKS}/export?format=csv`, { token: nw })).body)).not.toContain(SECRET);
    // an edit that leaves the secret out keeps it: the next delivery is still signed with it
    const kept = await s.call('PUT', `${HOOKS}/${id}`, {
      token: nw,
      body: { name: 'Quiet desk (renamed)', url: rx.url('/quiet'), active: true, alarmRaised: true, updatedAt: one.body.updatedAt },
    });
    expect(kept.status).toBe(200);
    await alarm(northwind, 'door-wh-q1');
    const [d] = await waitFor(() => at('/quiet').length >= 1 && at('/quiet'), 'the delivery');
    expect(verifySignature(SECRET, String(d.headers[WEBHOOK_TIMESTAMP_HEADER]), d.body, String(d.headers[WEBHOOK_SIGNATURE_HEADER]))).toBe(true);
    // a new one replaces it
    const NEW = 'a-brand-new-secret-5678';
    expect(
      (await s.call('PUT', `${HOOKS}/${id}`, { token: nw, body: { name: 'Quiet desk', url: rx.url('/quiet'), secret: NEW, active: true, alarmRaised: true } }))
        .status,
    ).toBe(200);
    await alarm(northwind, 'door-wh-q2');
    const d2 = await waitFor(() => at('/quiet').find((g) => g.body.includes('door-wh-q2')), 'the second delivery');
    expect(verifySignature(NEW, String(d2.headers[WEBHOOK_TIMESTAMP_HEADER]), d2.body, String(d2.headers[WEBHOOK_SIGNATURE_HEADER]))).toBe(true);
  });

  it('refuses a target that is not an http(s) URL, naming the field', async () => {
    for (const url of ['ftp://example.com/x', 'not a url', 'https://user:pw@example.com/']) {
      const r = await s.call('POST', HOOKS, { token: nw, body: { name: `Bad ${url}`, url, secret: SECRET, active: true } });
      expect(r.status).toBe(400);
      expect(r.body.violations[0].field).toBe('url');
    }
  });
});

describe('the outbox', () => {
  it('keeps deliveries through a restart: written while no worker runs, sent by the next server', async () => {
    const first = await startTestServer({ webhooks: false });
    try {
      const admin = await first.login('admin');
      const clients = (await first.call('GET', API.clients, { token: admin })).body.items;
      const client = clients.find((c: any) => c.code === 'NORTHWIND').id;
      const token = (await first.call('PUT', API.meClient, { token: admin, body: { clientId: client } })).body.token;
      expect(
        (await first.call('POST', HOOKS, { token, body: { name: 'Restart', url: rx.url('/restart'), secret: SECRET, active: true, alarmRaised: true } }))
          .status,
      ).toBe(201);
      await first.app.pipeline.record(client, { eventCode: EVENT_CODES.doorForcedOpen, sourceId: 'door-r', sourceName: null, message: 'Door forced open' });
      expect(await first.count(`select 1 from webhook_outbox where state = 'pending'`)).toBe(1);
      await first.app.close(); // the server goes away with the delivery still owed
      const second = await buildServer({
        db: first.db,
        jwtSecret: 'test-secret-of-enough-length',
        staticDir: null,
        webhooks: FAST,
        allowPrivateWebhookTargets: true,
      });
      await second.listen({ port: 0, host: '127.0.0.1' });
      try {
        await waitFor(() => at('/restart').length >= 1, 'the delivery after the restart', 5000);
        expect(JSON.parse(at('/restart')[0].body).type).toBe('alarm.raised');
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });
});
