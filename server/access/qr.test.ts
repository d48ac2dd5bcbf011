// Door QR codes (issue 12): a door turned on for QR codes takes a credential's rotating code while it is current;
// the code of the previous period is refused as no longer current, a door turned off refuses every code; codes are
// never handed out for the future; another tenant's door is 404; turning on and off is audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, DESTINATIONS, SOCKJS_PREFIX } from '../../contract';
import { listening, waitFor, type TestClient } from '../realtime/testkit';
import { startTestServer, type TestServer } from '../testkit';
import { createQrPublisher } from './qrPublisher';

let s: TestServer;
let admin: string, harbour: string;
let northwind: number;

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  [admin, harbour] = await Promise.all([s.loginTo('admin', 'NORTHWIND'), s.login('harbour')]);
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
}, 60_000);
const consoles: TestClient[] = [];
afterAll(async () => {
  for (const c of consoles) await c.client.deactivate({ force: true });
  await s?.close();
});

/** A console of `token`'s tenant on the visitor service listening to /dynamic-qr (receipt awaited). */
async function dynamicQr(token: string) {
  const l = await listening(`${s.base}${SOCKJS_PREFIX.visitor}`, token, DESTINATIONS.dynamicQr);
  consoles.push(l.client);
  return l.bodies;
}

describe('door QR codes', () => {
  it('a current code opens the door, the previous one does not, and none once the door is turned off', async () => {
    const door = Number(
      (await s.db.query<{ id: number }>(`select id from doors where client_id = $1 and mode = 'card' order by id limit 1`, [northwind])).rows[0].id,
    );
    const card = (
      await s.db.query<{ number: string }>(
        `select c.number from credentials c join identities i on i.id = c.identity_id where c.client_id = $1 and i.status = 'active' and c.status = 'active' and c.type <> 'pin' order by c.id limit 1`,
        [northwind],
      )
    ).rows[0].number;
    const code = (q = '') => s.call('GET', `${API.doors}/${door}/qr/code?credential=${card}${q}`, { token: admin });
    const present = (qr: string, at?: string) =>
      s.call('POST', API.testSimulate, { token: admin, body: { kind: 'qr.presented', doorId: door, qr, ...(at ? { at } : {}) } });

    expect((await s.call('GET', `${API.doors}/qr`, { token: admin })).body.items.find((d: any) => d.id === door).qr).toBe(false);
    expect((await code()).status).toBe(409);
    expect((await s.call('POST', `${API.doors}/${door}/qr`, { token: admin, body: { on: true } })).status).toBe(200);
    expect((await s.call('GET', `${API.doors}/qr`, { token: admin })).body.items.find((d: any) => d.id === door).qr).toBe(true);
    expect(await s.count(`select 1 from audit_log where entity = 'door' and entity_id = $1 and action = 'QR codes on'`, [String(door)])).toBe(1);

    let now = await code();
    // a code about to roll over would make the next step a race: take the next period's
    if (Date.parse(now.body.validTo) - Date.now() < 3000) {
      // deliberate: waits out the rest of the code's 30 s period (a time the code measures), not for an event
      await new Promise((r) => setTimeout(r, 3100));
      now = await code();
    }
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ credential: card, periodS: 30, code: expect.stringMatching(/^GHQ\./) });
    expect(Date.parse(now.body.validTo) - Date.parse(now.body.validFrom)).toBe(30_000);
    // shown within its period (a loaded machine may take seconds between reading the code and presenting it)
    const granted = await present(now.body.code, new Date(Date.parse(now.body.validFrom) + 1000).toISOString());
    expect(granted.body.eventCode).toBe(5000);
    expect(granted.body.message).toContain('QR code');

    const old = await code(`&at=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`);
    const late = await present(old.body.code);
    expect(late.body.eventCode).toBe(5012);
    const why = await s.call('GET', `${API.events}/${late.body.id}/explain`, { token: admin });
    expect(why.body.now.reason).toBe('qr-expired');

    const future = await code(`&at=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(future.status).toBe(400);
    expect(future.body.violations[0].field).toBe('at');
    expect((await s.call('GET', `${API.doors}/${door}/qr/code?credential=NOPE-1`, { token: admin })).body.violations[0].field).toBe('credential');
    expect((await s.call('GET', `${API.doors}/${door}/qr/code?credential=${card}`, { token: harbour })).status).toBe(404);
    expect((await s.call('POST', `${API.doors}/${door}/qr`, { token: harbour, body: { on: false } })).status).toBe(404);

    expect((await s.call('POST', `${API.doors}/${door}/qr`, { token: admin, body: { on: false } })).status).toBe(200);
    const refused = await present(now.body.code);
    expect(refused.body.eventCode).toBe(5012);
    expect((await s.call('GET', `${API.events}/${refused.body.id}/explain`, { token: admin })).body.now.reason).toBe('qr-invalid');
  });

  it('/dynamic-qr announces a door at once when it is turned on, to its own tenant only; the display code opens nothing', async () => {
    const door = Number(
      (await s.db.query<{ id: number }>(`select id from doors where client_id = $1 and mode = 'card' order by id desc limit 1`, [northwind])).rows[0].id,
    );
    const ours = await dynamicQr(admin);
    const theirs = await dynamicQr(harbour);
    expect((await s.call('POST', `${API.doors}/${door}/qr`, { token: admin, body: { on: true } })).status).toBe(200);
    const [notice] = await waitFor(() => {
      const m = ours().filter((x) => x.doorId === door);
      return m.length ? m : null;
    }, '/dynamic-qr for the door');
    expect(notice).toEqual({
      id: expect.any(Number),
      doorId: door,
      code: expect.stringMatching(new RegExp(`^GHD\\.${door}\\.\\d+\\.`)),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(notice.expiresAt)).toBe((notice.id + 1) * 30_000);
    expect(Date.parse(notice.expiresAt)).toBeGreaterThan(Date.now() - 1000);
    // a kiosk's display code is not a credential's code: shown at the reader, it is refused
    expect((await s.call('POST', API.testSimulate, { token: admin, body: { kind: 'qr.presented', doorId: door, qr: notice.code } })).body.eventCode).toBe(5012);
    expect(theirs().filter((x) => x.doorId === door)).toEqual([]);
    expect((await s.call('POST', `${API.doors}/${door}/qr`, { token: admin, body: { on: false } })).status).toBe(200);
  });

  it('announces every QR door at the start of each period, a new code each period', async () => {
    const door = Number((await s.db.query<{ id: number }>(`select id from doors where client_id = $1 order by id limit 1`, [northwind])).rows[0].id);
    await s.db.query(`update doors set qr_secret = 'a-test-secret' where id = $1`, [door]);
    const heard: { clientId: number; body: any }[] = [];
    const publisher = createQrPublisher(
      s.db,
      (clientId, destination, body) => {
        if (destination === DESTINATIONS.dynamicQr) heard.push({ clientId, body });
      },
      { periodS: 1 },
    );
    publisher.start();
    try {
      await waitFor(() => new Set(heard.filter((h) => h.body.doorId === door).map((h) => h.body.id)).size >= 2, 'two periods announced', 5000);
    } finally {
      publisher.stop();
    }
    const mine = heard.filter((h) => h.body.doorId === door);
    expect(mine.every((h) => h.clientId === northwind)).toBe(true);
    const [a, b] = mine;
    expect(b.body.id).toBe(a.body.id + 1);
    expect(b.body.code).not.toBe(a.body.code);
    expect(Date.parse(b.body.expiresAt)).toBe((b.body.id + 1) * 1000);
    // one period's announcement covers every door that takes codes, and nothing else
    expect(await publisher.announce(Date.now())).toBe(await s.count('select 1 from doors where qr_secret is not null'));
    await s.db.query('update doors set qr_secret = null where id = $1', [door]);
  });
});
