// The events list over millions of stored events counts like the catalogue's lists (issue 11): at most the count cap
// of matching events, beyond it the total is a lower bound (`totalIsAtLeast`, "1–20 of 10,000+" in the event report),
// and the last page tells the exact total. The cap is 5 here (LIST_COUNT_CAP is 10,000), so nine swipes at one door
// show every case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

const CAP = 5;
let s: TestServer;
let token: string;
let door: number;
let point = ''; // the door's event point, as the swipes name it

const list = async (query: string) => {
  const r = await s.call('GET', `${API.events}?eventPointId=${encodeURIComponent(point)}&${query}`, { token });
  expect(r.status).toBe(200);
  return r.body as { items: { id: number }[]; total: number; totalIsAtLeast: boolean; page: number; size: number };
};
const swipes = async (n: number) => {
  for (let i = 0; i < n; i++) {
    const r = await s.call('POST', API.testSimulate, { token, body: { kind: 'card.granted', doorId: door } });
    expect(r.status).toBe(200);
    point = String(r.body.eventPointId);
  }
};

beforeAll(async () => {
  s = await startTestServer({ listCountCap: CAP, testHooks: true });
  const admin = await s.login('admin');
  const northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  token = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
  door = Number((await s.db.query<{ id: number }>(`select id from doors where client_id = $1 and mode = 'card' order by id limit 1`, [northwind])).rows[0].id);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe('the events list total', () => {
  it('is exact below the cap, a lower bound above it, and exact again on the last page', async () => {
    await swipes(3);
    expect(await list('size=10')).toMatchObject({ total: 3, totalIsAtLeast: false });
    expect((await list('size=2')).items).toHaveLength(2);
    expect(await list('size=2')).toMatchObject({ total: 3, totalIsAtLeast: false });

    await swipes(6);
    expect(await s.count('select 1 from events where event_point_id = $1', [point])).toBe(9);
    // more than the cap match: "5+" on the first pages, the rows seen so far beyond the cap
    expect(await list('size=2')).toMatchObject({ total: CAP, totalIsAtLeast: true });
    expect(await list('size=4&page=1')).toMatchObject({ total: 9, totalIsAtLeast: true });
    // the last page knows the exact total
    const last = await list('size=2&page=4');
    expect(last.items).toHaveLength(1);
    expect(last).toMatchObject({ total: 9, totalIsAtLeast: false });
    // and the order and rows are those of the whole list
    const all = (await list('size=20')).items.map((e) => e.id);
    expect(all).toHaveLength(9);
    expect([...(await list('size=4&page=0')).items, ...(await list('size=4&page=1')).items, ...last.items].map((e) => e.id)).toEqual(all);
  });
});
