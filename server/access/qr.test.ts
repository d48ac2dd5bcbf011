// Door QR codes (issue 12): a door turned on for QR codes takes a credential's rotating code while it is current;
// the code of the previous period is refused as no longer current, a door turned off refuses every code; codes are
// never handed out for the future; another tenant's door is 404; turning on and off is audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, harbour: string;
let northwind: number;

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  [admin, harbour] = await Promise.all(['admin', 'harbour'].map((u) => s.login(u)));
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  admin = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
}, 60_000);
afterAll(async () => { await s?.close(); });

describe('door QR codes', () => {
  it('a current code opens the door, the previous one does not, and none once the door is turned off', async () => {
    const door = Number((await s.db.query<{ id: number }>(`select id from doors where client_id = $1 and mode = 'card' order by id limit 1`, [northwind])).rows[0].id);
    const card = (await s.db.query<{ number: string }>(
      `select c.number from credentials c join identities i on i.id = c.identity_id where c.client_id = $1 and i.status = 'active' and c.status = 'active' and c.type <> 'pin' order by c.id limit 1`, [northwind])).rows[0].number;
    const code = (q = '') => s.call('GET', `${API.doors}/${door}/qr/code?credential=${card}${q}`, { token: admin });
    const present = (qr: string) => s.call('POST', API.testSimulate, { token: admin, body: { kind: 'qr.presented', doorId: door, qr } });

    expect((await s.call('GET', `${API.doors}/qr`, { token: admin })).body.items.find((d: any) => d.id === door).qr).toBe(false);
    expect((await code()).status).toBe(409);
    expect((await s.call('POST', `${API.doors}/${door}/qr`, { token: admin, body: { on: true } })).status).toBe(200);
    expect((await s.call('GET', `${API.doors}/qr`, { token: admin })).body.items.find((d: any) => d.id === door).qr).toBe(true);
    expect(await s.count(`select 1 from audit_log where entity = 'door' and entity_id = $1 and action = 'QR codes on'`, [String(door)])).toBe(1);

    let now = await code();
    // a code about to roll over would make the next step a race: take the next period's
    if (Date.parse(now.body.validTo) - Date.now() < 3000) { await new Promise((r) => setTimeout(r, 3100)); now = await code(); }
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ credential: card, periodS: 30, code: expect.stringMatching(/^GHQ\./) });
    expect(Date.parse(now.body.validTo) - Date.parse(now.body.validFrom)).toBe(30_000);
    const granted = await present(now.body.code);
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
});
