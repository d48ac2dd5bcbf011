// Overrides (issue 12), against the real server and database: an unlocking override unlocks its doors when it
// starts and locks them when it ends (the clock's tick, once per start and end); swipes are decided by the override
// in force (a locking one denies, naming it); an override in force keeps its doors and mode and cannot be deleted;
// a window whose end is not after its start is refused on the field; another tenant's override is 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, overridesResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, harbour: string;
let northwind: number;
const OVR = overridesResource.api;

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  [admin, harbour] = await Promise.all(['admin', 'harbour'].map((u) => s.login(u)));
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  admin = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const doorIds = async (n: number) =>
  (await s.db.query<{ id: number }>(`select id from doors where client_id = $1 and mode = 'card' order by id limit $2`, [northwind, n])).rows.map((r) =>
    Number(r.id),
  );
const status = async (id: number) => (await s.db.query<{ status: string }>('select status from doors where id = $1', [id])).rows[0].status;
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();
const tick = async () => {
  await s.app.overrides.tick();
  return s.app.overrides.tick();
};
const activeCard = async () =>
  (
    await s.db.query<{ number: string }>(
      `select c.number from credentials c join identities i on i.id = c.identity_id where c.client_id = $1 and i.status = 'active' and c.status = 'active' and c.type <> 'pin' order by c.id limit 1`,
      [northwind],
    )
  ).rows[0].number;

describe('overrides', () => {
  it('refuses an end that is not after the start, on the field, and stores nothing', async () => {
    const [door] = await doorIds(1);
    const at = iso(3_600_000);
    const r = await s.call('POST', OVR, { token: admin, body: { name: 'Backwards', mode: 'unlocked', startsAt: at, endsAt: at, doorIds: [door] } });
    expect(r.status).toBe(400);
    expect(r.body.violations).toEqual([{ field: 'endsAt', message: 'must be after the start', code: 'resource.overrides.rule.endsAt', values: {} }]);
    const impossible = await s.call('POST', OVR, {
      token: admin,
      body: { name: 'Feb', mode: 'unlocked', startsAt: '2026-02-30T10:00:00Z', endsAt: iso(3_600_000), doorIds: [door] },
    });
    expect(impossible.status).toBe(400);
    expect(impossible.body.violations[0]).toEqual({ field: 'startsAt', message: 'is not a real calendar date', code: 'date.notReal', values: {} });
    expect(await s.count(`select 1 from door_overrides where name in ('Backwards', 'Feb')`)).toBe(0);
  });

  it('unlocks its doors at the start, keeps them while in force, and locks them again at the end', async () => {
    const doors = await doorIds(2);
    for (const d of doors) await s.call('POST', `${API.doors}/${d}/commands`, { token: admin, body: { command: 'lock', force: true } });
    const created = await s.call('POST', OVR, {
      token: admin,
      body: { name: 'Open day', mode: 'unlocked', startsAt: iso(-60_000), endsAt: iso(3_600_000), doorIds: doors, reason: 'Visitors all afternoon' },
    });
    expect(created.status).toBe(201);
    expect(created.body.state).toBe('active');
    expect(await tick()).toBe(0); // the first tick did the work; a second finds nothing due
    for (const d of doors) expect(await status(d)).toBe('unlocked');
    expect(await s.count('select 1 from events where message like $1', ['%the override Open day%'])).toBe(2);

    // in force: its doors and mode stay; it is not deleted
    const row = (await s.call('GET', `${OVR}/${created.body.id}`, { token: admin })).body;
    const moved = await s.call('PUT', `${OVR}/${row.id}`, {
      token: admin,
      body: { ...row, state: undefined, id: undefined, clientId: undefined, createdAt: undefined, mode: 'locked', doorIds: doors.slice(0, 1) },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.violations.map((v: any) => v.field).sort()).toEqual(['doorIds', 'mode']);
    const del = await s.call('DELETE', `${OVR}/${row.id}`, { token: admin });
    expect(del.status).toBe(409);
    expect(del.body.message).toContain('Open day is in force');
    expect((await s.call('GET', `${OVR}/${row.id}`, { token: harbour })).status).toBe(404);

    // ended now: the doors lock again on the next tick, and it may then be deleted
    const { state: _s, id: _i, clientId: _c, createdAt: _ca, ...input } = row;
    const ended = await s.call('PUT', `${OVR}/${row.id}`, { token: admin, body: { ...input, endsAt: iso(0) } });
    expect(ended.status).toBe(200);
    // deliberate, not a wait for an event: the override ends when the database's now() passes endsAt (ends_at <=
    // now()), read from this process's clock just before the PUT; 20 ms puts it in the past whatever the clocks' grain
    await new Promise((r) => setTimeout(r, 20));
    await tick();
    for (const d of doors) expect(await status(d)).toBe('locked');
    expect((await s.call('GET', `${OVR}/${row.id}`, { token: admin })).body.state).toBe('ended');
    expect((await s.call('DELETE', `${OVR}/${row.id}`, { token: admin })).status).toBe(200);
  });

  it('decides swipes by the override in force: a locking one denies and names itself, then the door is back to card', async () => {
    const [door] = await doorIds(1);
    const card = await activeCard();
    const swipe = (at: string) => s.call('POST', API.testSimulate, { token: admin, body: { kind: 'card.granted', doorId: door, card, at } });
    const start = Date.now() + 3_600_000;
    const r = await s.call('POST', OVR, {
      token: admin,
      body: { name: 'Drill', mode: 'locked', startsAt: new Date(start).toISOString(), endsAt: new Date(start + 1_800_000).toISOString(), doorIds: [door] },
    });
    expect(r.status).toBe(201);
    expect(r.body.state).toBe('scheduled');
    const during = await swipe(new Date(start + 60_000).toISOString());
    expect(during.body.eventCode).not.toBe(5000);
    const why = await s.call('GET', `${API.events}/${during.body.id}/explain`, { token: admin });
    expect(why.body.now.reason).toBe('door-locked-down');
    expect(why.body.now.steps.at(-1).detail).toContain('held locked by the override Drill');
    expect((await swipe(new Date(start + 1_900_000).toISOString())).body.eventCode).toBe(5000);
    expect((await swipe(new Date(start - 60_000).toISOString())).body.eventCode).toBe(5000);
  });
});

describe('overrideAt', () => {
  it('answers the override whose window holds the moment, the one that started last when two overlap', async () => {
    const { overrideAt } = await import('../../access/engine');
    const door = {
      id: 1,
      name: 'D',
      mode: 'card' as const,
      formatIds: [],
      entryZoneId: null,
      exitZoneId: null,
      interlockIds: [],
      qrSecret: null,
      overrides: [
        { id: 1, name: 'Day', mode: 'unlocked' as const, from: 1000, to: 9000 },
        { id: 2, name: 'Drill', mode: 'locked' as const, from: 4000, to: 5000 },
      ],
    };
    expect(overrideAt(door, 999)).toBeNull();
    expect(overrideAt(door, 1000)?.name).toBe('Day');
    expect(overrideAt(door, 4500)?.name).toBe('Drill');
    expect(overrideAt(door, 5000)?.name).toBe('Day'); // the end is not part of the window
    expect(overrideAt(door, 9000)).toBeNull();
  });
});
