// Batch add of visitor credentials [1.2.4]: a box of cards numbered in a row is added whole, once; a clash, a number
// past the digits or a bad prefix refuses all of it with the field named; numbers are per client; the view code alone
// may not add.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISITOR_CREDENTIAL_BATCH_API, visitorCredentialsResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let reception: string, auditor: string, harbour: string;

beforeAll(async () => {
  s = await startTestServer();
  [reception, auditor, harbour] = await Promise.all([s.login('reception'), s.login('auditor'), s.login('harbour')]);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const count = () => s.count(`select 1 from visitor_credentials where number like 'B-%'`);
const audits = () => s.count(`select 1 from audit_log where action = 'batch-add'`);

describe('visitor credentials, batch add', () => {
  it('adds a numbered box once, refuses it again naming the clash, and changes nothing when refused', async () => {
    const batch = { prefix: 'B-', first: 1, count: 50, digits: 4, kind: 'card' };
    const made = await s.call('POST', VISITOR_CREDENTIAL_BATCH_API, { token: reception, body: batch });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ added: 50, firstNumber: 'B-0001', lastNumber: 'B-0050' });
    expect(await count()).toBe(50);
    expect(await audits()).toBe(1);
    const listed = await s.call('GET', `${visitorCredentialsResource.api}?q=B-0050`, { token: reception });
    expect(listed.body.items.map((x: { number: string; state: string; kind: string }) => [x.number, x.state, x.kind])).toEqual([
      ['B-0050', 'available', 'card'],
    ]);

    const again = await s.call('POST', VISITOR_CREDENTIAL_BATCH_API, { token: reception, body: { ...batch, first: 41, count: 20 } });
    expect(again.status).toBe(400);
    expect(again.body.violations).toEqual([
      {
        field: 'first',
        message: 'takes numbers already in use: B-0041 and 9 more',
        code: 'visitorCredential.numbersTaken',
        values: { first: 'B-0041', more: 9 },
      },
    ]);
    expect(await count()).toBe(50);
    expect(await audits()).toBe(1);
  });

  it('names the field of a batch that cannot be made', async () => {
    const refused = async (b: Record<string, unknown>) => {
      const r = await s.call('POST', VISITOR_CREDENTIAL_BATCH_API, {
        token: reception,
        body: { prefix: 'B-', first: 1, count: 5, digits: 4, kind: 'card', ...b },
      });
      expect(r.status).toBe(400);
      // each said by its key (issue 48), the contract's and the batch's own (visitorCredential.wouldRunPast)
      expect(r.body.violations.filter((v: { code?: string }) => typeof v.code !== 'string')).toEqual([]);
      return r.body.violations.map((v: { field: string }) => v.field);
    };
    expect(await refused({ first: 9990, count: 20 })).toEqual(['count']); // would pass 9999
    expect(await refused({ count: 501 })).toEqual(['count']);
    expect(await refused({ prefix: 'b-' })).toEqual(['prefix']);
    expect(await refused({ digits: 11 })).toEqual(['digits']);
    expect(await refused({ kind: 'wristband' })).toEqual(['kind']);
    expect(await count()).toBe(50);
  });

  it('numbers per client, and only for the batch-add code', async () => {
    const mine = await s.call('POST', VISITOR_CREDENTIAL_BATCH_API, { token: harbour, body: { prefix: 'B-', first: 1, count: 3, digits: 4, kind: 'qr' } });
    expect(mine.status).toBe(201);
    expect(
      (await s.call('POST', VISITOR_CREDENTIAL_BATCH_API, { token: auditor, body: { prefix: 'Z-', first: 1, count: 3, digits: 4, kind: 'qr' } })).status,
    ).toBe(403);
    expect(await s.count(`select 1 from visitor_credentials where number like 'Z-%'`)).toBe(0);
  });
});
