// Server answers are filtered by the same privileges (and divisions) as the screen that owns the data (issue 10):
// a user who could not open the screen gets 403, a door outside the user's divisions or another tenant's is 404.
// Users here hold narrow custom roles, so each answer is decided by exactly one grant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { hashPassword } from '../auth/passwords';
import { DEMO_PASSWORD } from '../db/seed';
import { addGrant, insertRole } from '../db/queries/grants';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let northwind: number, harbourId: number, hq: number, security: number;
let auditor: string;

/** A Northwind user holding `role` (made of `privileges`) on each of `divisions`. */
async function userWith(username: string, grants: { privileges: string[]; division: number }[]): Promise<string> {
  const hash = await hashPassword(DEMO_PASSWORD);
  const id = (
    await s.db.query<{ id: number }>('insert into users (username, password_hash, name, selected_client_id) values ($1,$2,$3,$4) returning id', [
      username,
      hash,
      username,
      northwind,
    ])
  ).rows[0].id;
  for (const [i, g] of grants.entries()) {
    const role = `test-${username}-${i}`;
    await insertRole(s.db, role, role, g.privileges);
    await addGrant(s.db, { userId: id, role, clientId: northwind, divisionId: g.division });
  }
  return s.login(username);
}
const doors = async (clientId: number) =>
  (await s.db.query<{ id: number; division_id: number; name: string }>('select id, division_id, name from doors where client_id = $1 order by id', [clientId]))
    .rows;
const command = (token: string, doorId: number, command: string) =>
  s.call('POST', `${API.doors}/${doorId}/commands`, { token, body: { command, force: true } });

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  const ids = await s.db.query<{ code: string; id: number }>('select code, id from clients');
  northwind = Number(ids.rows.find((r) => r.code === 'NORTHWIND')!.id);
  harbourId = Number(ids.rows.find((r) => r.code === 'HARBOUR')!.id);
  const div = async (name: string) =>
    Number((await s.db.query<{ id: number }>('select id from divisions where client_id = $1 and name = $2', [northwind, name])).rows[0].id);
  hq = await div('Headquarters');
  security = await div('Security');
  auditor = await s.login('auditor');
});
afterAll(async () => {
  await s?.close();
});

describe("doors: the doors screen needs 0.4.5.0, and both list and commands stop at the grant's divisions", () => {
  it('refuses the list to a user who may control doors but not open the doors screen (403), yet lets them command', async () => {
    const token = await userWith('controller', [{ privileges: ['0.4.5.4'], division: hq }]);
    expect((await s.call('GET', API.doors, { token })).status).toBe(403);
    const door = (await doors(northwind))[0];
    expect((await command(token, door.id, 'lock')).status).toBe(200);
  });

  it("lists and commands only the doors in the divisions of the door grants; another division's or tenant's door is 404", async () => {
    // door rights on Security (and the teams below it), visitor rights everywhere: the visitor grant opens no door
    const token = await userWith('security-desk', [
      { privileges: ['0.4.5.0', '0.4.5.4'], division: security },
      { privileges: ['1.0.0', '0.4.5.5'], division: hq },
    ]);
    const covered = (await s.db.query<{ id: number }>('select id from divisions where id = $1 or parent_id = $1', [security])).rows.map((r) => Number(r.id));
    const all = await doors(northwind);
    const inside = all.filter((d) => covered.includes(d.division_id));
    const outside = all.filter((d) => !covered.includes(d.division_id));
    expect(inside.length).toBeGreaterThan(1);
    expect(outside.length).toBeGreaterThan(0);
    const list = await s.call('GET', API.doors, { token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((d: any) => d.id)).toEqual(inside.map((d) => d.id));

    expect((await command(token, inside[0].id, 'unlock')).status).toBe(200);
    const refused = await command(token, outside[0].id, 'unlock');
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ message: 'Door not found', code: 'record.notFound', values: { what: 'Door' } }); // keyed (issue 48)
    expect(await s.count(`select 1 from events where event_point_id = $1 and message like '%by security-desk%'`, [`output-${outside[0].id}`])).toBe(0);
    expect((await command(token, (await doors(harbourId))[0].id, 'unlock')).status).toBe(404);
  });
});

describe('session replays: the recorded sessions live on the journal replay screen (0.8.1.0) and need 0.8.2.0 there', () => {
  it("refuses the list and a recording to a user holding 0.8.2.0 without the screen's 0.8.1.0 (403)", async () => {
    const token = await userWith('replays-only', [{ privileges: ['0.8.2.0'], division: hq }]);
    expect((await s.call('GET', API.sessionJournals, { token })).status).toBe(403);
    expect((await s.call('GET', `${API.sessionJournals}/1`, { token })).status).toBe(403);
    const both = await userWith('replays-and-screen', [{ privileges: ['0.8.1.0', '0.8.2.0'], division: hq }]);
    expect((await s.call('GET', API.sessionJournals, { token: both })).status).toBe(200);
    expect((await s.call('GET', API.sessionJournals, { token: auditor })).status).toBe(200);
    expect((await s.call('GET', `${API.sessionJournals}/999999`, { token: both })).status).toBe(404);
  });
});

describe('divisions: only those the division and identity grants cover', () => {
  it('leaves out divisions that only an unrelated grant (visitors) covers', async () => {
    const token = await userWith('security-hr', [
      { privileges: ['0.3.1.0'], division: security },
      { privileges: ['1.0.0', '1.0.3'], division: hq },
    ]);
    const covered = (await s.db.query<{ id: number }>('select id from divisions where id = $1 or parent_id = $1', [security])).rows
      .map((r) => Number(r.id))
      .sort((a, b) => a - b);
    const r = await s.call('GET', API.divisions, { token });
    expect(r.status).toBe(200);
    expect(r.body.items.map((d: any) => d.id).sort((a: number, b: number) => a - b)).toEqual(covered);
    // a user with only the visitor grant may not open the divisions screen nor an identity form
    const desk = await userWith('desk-only', [{ privileges: ['1.0.0', '1.0.3'], division: hq }]);
    expect((await s.call('GET', API.divisions, { token: desk })).status).toBe(403);
  });
});
