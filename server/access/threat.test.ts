// Threat levels (issue 12): a level in force decides at every door it covers — held locked denies (except members of
// its exempt groups) and locks the doors at once, card and PIN asks for the PIN — for the whole client or one site;
// it is audited, tells the consoles, lowers with one command or reverts by itself when its time is up. Another
// tenant's level or division is refused; levels are ranked, a rank used twice refused on the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, threatLevelsResource } from '../../contract';
import { hashPassword } from '../auth/passwords';
import { addGrant, insertRole } from '../db/queries/grants';
import { DEMO_PASSWORD } from '../db/seed';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, harbour: string;
let northwind: number;
const CURRENT = `${threatLevelsResource.api}/current`;

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  [admin, harbour] = await Promise.all(['admin', 'harbour'].map((u) => s.login(u)));
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  admin = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
}, 60_000);
afterAll(async () => { await s?.close(); });

const swipe = (doorId: number, card?: string) => s.call('POST', API.testSimulate, { token: admin, body: { kind: 'card.granted', doorId, ...(card ? { card } : {}) } });
const level = (body: Record<string, unknown>) => s.call('POST', threatLevelsResource.api, { token: admin, body: { exemptGroupIds: [], description: null, ...body } });

describe('threat levels', () => {
  it('decide at every door while in force, lock the doors at once, spare exempt groups, and lower with one command', async () => {
    const doors = (await s.db.query<{ id: number }>(`select id from doors where client_id = $1 and mode = 'card' order by id`, [northwind])).rows.map((r) => Number(r.id));
    const door = doors[0];
    const first = await swipe(door);
    expect(first.body.eventCode).toBe(5000);
    const card = /card (\S+)\)/.exec(first.body.message)![1];

    const severe = await level({ name: 'Severe', rank: 4, mode: 'locked' });
    expect(severe.status).toBe(201);
    const elevated = await level({ name: 'Elevated', rank: 2, mode: 'card-pin' });
    expect(elevated.status).toBe(201);
    const twice = await level({ name: 'Also two', rank: 2, mode: 'card' });
    expect(twice.status).toBe(400);
    expect(twice.body.violations).toEqual([{ field: 'rank', message: 'is already the rank of another threat level' }]);

    // refused: another tenant's level, a division of another tenant, a user without door control
    expect((await s.call('POST', CURRENT, { token: harbour, body: { levelId: severe.body.id } })).body.violations).toEqual([{ field: 'levelId', message: 'is not a threat level of this client' }]);
    const theirDivision = Number((await s.db.query<{ id: number }>(`select d.id from divisions d join clients c on c.id = d.client_id where c.code = 'HARBOUR' order by d.id limit 1`)).rows[0].id);
    expect((await s.call('POST', CURRENT, { token: admin, body: { levelId: severe.body.id, divisionId: theirDivision } })).status).toBe(404);
    expect((await s.call('POST', CURRENT, { token: await s.login('hr'), body: { levelId: severe.body.id } })).status).toBe(403);
    expect((await s.call('POST', CURRENT, { token: admin, body: { levelId: 'x' } })).body.violations[0].field).toBe('levelId');
    expect((await s.call('GET', CURRENT, { token: admin })).body.level).toBeNull();

    const on = await s.call('POST', CURRENT, { token: admin, body: { levelId: severe.body.id } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ level: { id: severe.body.id, name: 'Severe', rank: 4, mode: 'locked' }, divisionId: null, setBy: 'admin', until: null });
    expect(await s.count(`select 1 from audit_log where action = 'threat level' and client_id = $1`, [northwind])).toBe(1);
    expect(await s.count(`select 1 from doors where client_id = $1 and status <> 'locked'`, [northwind])).toBe(0);
    // held against commands too: no unlock, forced or not, until lowered; locking again is fine
    const unlock = await s.call('POST', `${API.doors}/${door}/commands`, { token: admin, body: { command: 'unlock', force: true } });
    expect([unlock.status, unlock.body.message]).toEqual([409, 'This door is held locked by threat level Severe: lower it first']);
    expect((await s.call('POST', `${API.doors}/${door}/commands`, { token: admin, body: { command: 'lock', force: true } })).status).toBe(200);
    const denied = await swipe(door, card);
    expect(denied.body.eventCode).toBe(5004);
    const why = await s.call('GET', `${API.events}/${denied.body.id}/explain`, { token: admin });
    expect(why.body.now.reason).toBe('door-locked-down');
    expect(JSON.stringify(why.body.now.steps)).toContain('threat level Severe');

    // responders pass: the card holder's own access group made exempt
    const holder = Number((await s.db.query<{ identity_id: number }>('select identity_id from credentials where number = $1', [card])).rows[0].identity_id);
    const groupId = Number((await s.db.query<{ access_group_id: number }>('select access_group_id from access_group_members where identity_id = $1 limit 1', [holder])).rows[0].access_group_id);
    const row = (await s.call('GET', `${threatLevelsResource.api}/${severe.body.id}`, { token: admin })).body;
    expect((await s.call('PUT', `${threatLevelsResource.api}/${row.id}`, { token: admin, body: { name: row.name, rank: row.rank, mode: row.mode, description: null, exemptGroupIds: [groupId], updatedAt: row.updatedAt } })).status).toBe(200);
    expect((await swipe(door, card)).body.eventCode).toBe(5000);

    // card and PIN everywhere
    expect((await s.call('POST', CURRENT, { token: admin, body: { levelId: elevated.body.id } })).body.level.name).toBe('Elevated');
    expect((await swipe(door, card)).body.eventCode).toBe(5005);

    // lowered: the doors are as they were
    const off = await s.call('POST', CURRENT, { token: admin, body: { levelId: null } });
    expect(off.body.level).toBeNull();
    expect(await s.count(`select 1 from audit_log where action = 'threat level lowered' and client_id = $1`, [northwind])).toBe(1);
    expect((await swipe(door, card)).body.eventCode).toBe(5000);
  });

  it('tells a holder of door control without the override codes which levels and sites they may set', async () => {
    const operator = await s.login('operator'); // security operator at Northwind: door control, not 0.4.4.0
    expect((await s.call('GET', threatLevelsResource.api, { token: operator })).status).toBe(403); // may not configure them
    const mine = await s.call('GET', `${CURRENT}/choices`, { token: operator });
    expect(mine.status).toBe(200);
    const levels = (await s.db.query<{ name: string }>('select name from threat_levels where client_id = $1 order by rank, id', [northwind])).rows.map((r) => r.name);
    expect(levels.length).toBeGreaterThan(0);
    expect(mine.body.levels.map((l: { name: string }) => l.name)).toEqual(levels);
    const divisions = (await s.db.query<{ id: number }>('select id from divisions where client_id = $1', [northwind])).rows.map((r) => Number(r.id));
    expect(mine.body.sites.map((d: { id: number }) => d.id).sort((a: number, b: number) => a - b)).toEqual(divisions.sort((a, b) => a - b));
    expect(mine.body.wholeClient).toBe(true);
    // and may set one with the same command as the screen's
    const set = await s.call('POST', CURRENT, { token: operator, body: { levelId: mine.body.levels[0].id, divisionId: mine.body.sites[0].id, minutes: 5 } });
    expect(set.status).toBe(200);
    expect((await s.call('POST', CURRENT, { token: operator, body: { levelId: null } })).body.level).toBeNull();
    // another tenant's choices are its own; without door control, none
    const theirs = await s.call('GET', `${CURRENT}/choices`, { token: harbour });
    expect(theirs.status).toBe(200);
    const ours = new Set(mine.body.levels.map((l: { id: number }) => l.id));
    expect(theirs.body.levels.filter((l: { id: number }) => ours.has(l.id))).toEqual([]);
    expect(theirs.body.sites.filter((d: { id: number }) => divisions.includes(d.id))).toEqual([]);
    expect((await s.call('GET', `${CURRENT}/choices`, { token: await s.login('hr') })).status).toBe(403);
  });

  it('lets a holder of door control over one site set a level there only, and not touch a level that covers more', async () => {
    const id = async (name: string) => Number((await s.db.query<{ id: number }>('select id from divisions where client_id = $1 and name = $2', [northwind, name])).rows[0].id);
    const [operations, warehouse, fleet, security] = await Promise.all(['Operations', 'Warehouse', 'Fleet', 'Security'].map(id));
    // a Northwind user holding door control (0.4.5.4) on Operations (and so the divisions inside it) only
    const user = (await s.db.query<{ id: number }>('insert into users (username, password_hash, name, selected_client_id) values ($1,$2,$3,$4) returning id',
      ['site-operator', await hashPassword(DEMO_PASSWORD), 'Site operator', northwind])).rows[0].id;
    await insertRole(s.db, 'test-site-doors', 'Site doors', ['0.4.5.0', '0.4.5.4']);
    await addGrant(s.db, { userId: user, role: 'test-site-doors', clientId: northwind, divisionId: operations });
    const site = await s.login('site-operator');
    const mine = (await s.call('GET', `${CURRENT}/choices`, { token: site })).body;
    expect(mine.sites.map((d: { id: number }) => d.id).sort((a: number, b: number) => a - b)).toEqual([operations, warehouse, fleet].sort((a, b) => a - b));
    expect(mine.wholeClient).toBe(false);
    const watch = (await level({ name: 'Site watch', rank: 7, mode: 'card-pin' })).body.id;

    // allowed: a site they control (with the divisions inside it), audited under their name
    const set = await s.call('POST', CURRENT, { token: site, body: { levelId: watch, divisionId: warehouse } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ level: { name: 'Site watch' }, divisionId: warehouse, setBy: 'site-operator' });
    expect(await s.count(`select 1 from audit_log where action = 'threat level' and actor = 'site-operator' and client_id = $1`, [northwind])).toBe(1);
    // refused: a site of theirs they do not control (404, like a door outside their divisions), the whole client
    // (403), another tenant's division (404); the level in force stays
    expect((await s.call('POST', CURRENT, { token: site, body: { levelId: watch, divisionId: security } })).status).toBe(404);
    const whole = await s.call('POST', CURRENT, { token: site, body: { levelId: watch } });
    expect([whole.status, whole.body.message]).toEqual([403, 'You control the doors of some divisions only: choose one of them']);
    const theirDivision = Number((await s.db.query<{ id: number }>(`select d.id from divisions d join clients c on c.id = d.client_id where c.code = 'HARBOUR' order by d.id limit 1`)).rows[0].id);
    expect((await s.call('POST', CURRENT, { token: site, body: { levelId: watch, divisionId: theirDivision } })).status).toBe(404);
    expect((await s.call('GET', CURRENT, { token: admin })).body).toMatchObject({ level: { name: 'Site watch' }, divisionId: warehouse });
    // and lower their own
    expect((await s.call('POST', CURRENT, { token: site, body: { levelId: null } })).body.level).toBeNull();

    // a level the administrator set for the whole client, or for another site, is not theirs to lower or narrow
    for (const where of [null, security]) {
      expect((await s.call('POST', CURRENT, { token: admin, body: { levelId: watch, divisionId: where } })).status).toBe(200);
      const lower = await s.call('POST', CURRENT, { token: site, body: { levelId: null } });
      expect([lower.status, lower.body.message]).toEqual([403, 'The threat level in force covers doors you do not control']);
      expect((await s.call('POST', CURRENT, { token: site, body: { levelId: watch, divisionId: operations } })).status).toBe(403);
      expect((await s.call('GET', CURRENT, { token: admin })).body).toMatchObject({ level: { name: 'Site watch' }, divisionId: where });
    }
    expect((await s.call('POST', CURRENT, { token: admin, body: { levelId: null } })).body.level).toBeNull();
  });

  it('holds one site only when set for a division, and reverts by itself when its time is up', async () => {
    const doors = (await s.db.query<{ id: number; division_id: number }>(`select id, division_id from doors where client_id = $1 and mode = 'card' order by id`, [northwind])).rows;
    const divisions = (await s.db.query<{ id: number; parent_id: number | null }>('select id, parent_id from divisions where client_id = $1', [northwind])).rows;
    const below = (root: number): number[] => [root, ...divisions.filter((d) => d.parent_id === root).flatMap((d) => below(d.id))];
    // a door whose site (its division and those below) leaves another door out
    const inside = doors.find((d) => doors.some((o) => !below(d.division_id).includes(o.division_id)))!;
    const outside = doors.find((o) => !below(inside.division_id).includes(o.division_id))!;
    const lock = (await level({ name: 'Site alert', rank: 5, mode: 'locked' })).body.id;
    const a = await swipe(inside.id);
    const b = await swipe(outside.id);
    expect([a.body.eventCode, b.body.eventCode]).toEqual([5000, 5000]);
    const cardA = /card (\S+)\)/.exec(a.body.message)![1];
    const cardB = /card (\S+)\)/.exec(b.body.message)![1];

    const on = await s.call('POST', CURRENT, { token: admin, body: { levelId: lock, divisionId: inside.division_id, minutes: 5 } });
    expect(on.body).toMatchObject({ level: { name: 'Site alert' }, divisionId: inside.division_id, divisionName: expect.any(String) });
    expect(Date.parse(on.body.until) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect((await swipe(inside.id, cardA)).body.eventCode).toBe(5004);
    expect((await swipe(outside.id, cardB)).body.eventCode).toBe(5000);

    // its time is up: the server lowers it by itself, audited, and the door obeys at once
    await s.db.query(`update threat_level_state set until = now() - interval '1 second' where client_id = $1`, [northwind]);
    expect((await s.call('GET', CURRENT, { token: admin })).body.level).toBeNull();
    await waitForAsync(async () => (await s.count(`select 1 from audit_log where action = 'threat level reverted' and client_id = $1`, [northwind])) === 1, 'the revert', 6000);
    expect(await s.count('select 1 from threat_level_state where client_id = $1', [northwind])).toBe(0);
    expect((await swipe(inside.id, cardA)).body.eventCode).toBe(5000);
  });
});

async function waitForAsync(fact: () => Promise<boolean>, what: string, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) { if (await fact()) return; await new Promise((r) => setTimeout(r, 100)); }
  throw new Error(`timed out waiting for ${what}`);
}
