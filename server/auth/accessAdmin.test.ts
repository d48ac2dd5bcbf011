// Access administration (issue 11) against the real server and database: roles per client, assigning privileges
// per division, operator groups whose roles apply to every member, operators, and operator settings enforced at
// sign-in, change and reset of passwords, and on requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let nw: string; // Northwind's administrator (admin with Northwind selected)
let hb: string; // Harbour's administrator
let northwind: number;
let divisions: { id: number; name: string; parentId: number | null }[];
const PASSWORD = 'Strong-pass1';

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.login('admin');
  northwind = (await s.call('GET', '/central/1.0/clients', { token: admin })).body.items.find((c: any) => c.code === 'NORTHWIND').id;
  nw = (await s.call('PUT', '/idp/1.0/me/client', { token: admin, body: { clientId: northwind } })).body.token;
  hb = await s.login('harbour');
  divisions = (await s.db.query<any>('select id, name, parent_id "parentId" from divisions where client_id = $1 order by id', [northwind])).rows;
});
afterAll(async () => {
  await s?.close();
});

const division = (name: string) => divisions.find((d) => d.name === name)!.id;
let n = 0;
async function role(token = nw) {
  const r = await s.call('POST', API.roles, { token, body: { name: `Role ${++n}`, code: `role-${n}` } });
  expect(r.status).toBe(201);
  return r.body.id as number;
}
async function operator(token = nw) {
  const r = await s.call('POST', API.operators, { token, body: { username: `op${++n}`, name: `Operator ${n}`, password: PASSWORD } });
  expect([r.status, r.body]).toEqual([201, expect.anything()]);
  return { id: r.body.id as number, username: r.body.username as string };
}

describe('roles per client', () => {
  it('gives every client its own copy of the demo roles, and a new client its own too', async () => {
    const { rows } = await s.db.query<{ client_id: number; n: string }>(
      `select client_id, count(*)::text n from roles where code = 'administrator' group by client_id`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const nwRoles = (await s.call('GET', `${API.roles}?size=100`, { token: nw })).body.items.map((r: any) => r.code);
    expect(nwRoles).toEqual(expect.arrayContaining(['administrator', 'security-operator', 'receptionist']));
    expect(nwRoles).not.toContain('platform-operator');
  });

  it("answers 404 for another client's role on get, update, delete, privileges and assign", async () => {
    const id = await role();
    expect((await s.call('GET', `${API.roles}/${id}`, { token: hb })).status).toBe(404);
    expect((await s.call('GET', `${API.roles}/${id}/privileges`, { token: hb })).status).toBe(404);
    expect((await s.call('POST', `${API.roles}/${id}/assign-privileges`, { token: hb, body: { privileges: [] } })).status).toBe(404);
    expect((await s.call('DELETE', `${API.roles}/${id}`, { token: hb })).status).toBe(404);
  });

  it('assigns privileges per division, audited, and answers them back', async () => {
    const id = await role();
    const body = {
      privileges: [
        { code: '0.3.1.0', divisionId: division('Security') },
        { code: '0.1', divisionId: null },
      ],
    };
    const r = await s.call('POST', `${API.roles}/${id}/assign-privileges`, { token: nw, body });
    expect(r.status).toBe(200);
    expect(r.body.privilegeCount).toBe(2);
    const back = await s.call('GET', `${API.roles}/${id}/privileges`, { token: nw });
    expect(back.body.privileges).toEqual([
      { code: '0.1', divisionId: null },
      { code: '0.3.1.0', divisionId: division('Security') },
    ]);
    const audit = await s.db.query<any>(`select before, after from audit_log where entity = 'role' and action = 'assign-privileges' and entity_id = $1`, [
      String(id),
    ]);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].before.privileges).toEqual([]);
    expect(audit.rows[0].after.privileges).toHaveLength(2);
  });

  it("refuses unknown codes, platform privileges and another client's divisions, naming the field, and changes nothing", async () => {
    const id = await role();
    const harbourDivision = (
      await s.db.query<{ id: number }>(`select d.id from divisions d join clients c on c.id = d.client_id where c.code = 'HARBOUR' limit 1`)
    ).rows[0].id;
    const r = await s.call('POST', `${API.roles}/${id}/assign-privileges`, {
      token: nw,
      body: {
        privileges: [
          { code: '0.3.1.0', divisionId: null },
          { code: '7.7.7', divisionId: null },
          { code: '9.2.1', divisionId: null },
          { code: '0.1', divisionId: harbourDivision },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.violations.map((v: any) => v.field)).toEqual(['privileges.1.code', 'privileges.2.code', 'privileges.3.divisionId']);
    expect(r.body.violations[1].message).toMatch(/platform/);
    expect((await s.call('GET', `${API.roles}/${id}/privileges`, { token: nw })).body.privileges).toEqual([]);
    expect((await s.call('POST', `${API.roles}/${id}/assign-privileges`, { token: nw, body: { privileges: 'all' } })).status).toBe(400);
  });

  it('shows on the privileges screen which roles of the client hold each code', async () => {
    const r = await s.call('GET', API.privileges, { token: nw });
    expect(r.status).toBe(200);
    const identitiesView = r.body.find((p: any) => p.code === '0.3.1.0');
    expect(identitiesView.label).toBe('View identities');
    expect(identitiesView.roles.map((x: any) => x.name)).toContain('Administrator');
    expect(r.body.find((p: any) => p.code === '9.2.1')).toMatchObject({ platform: true, roles: [] });
    const hbView = (await s.call('GET', API.privileges, { token: hb })).body.find((p: any) => p.code === '0.3.1.0');
    expect(hbView.roles.every((x: any) => !identitiesView.roles.some((y: any) => y.id === x.id))).toBe(true);
  });
});

describe('operator groups', () => {
  it("gives every member the group's roles in the group's division, reaching them on their next request", async () => {
    const id = await role();
    await s.call('POST', `${API.roles}/${id}/assign-privileges`, {
      token: nw,
      body: {
        privileges: [
          { code: '0.3.1.0', divisionId: null },
          { code: '0.1', divisionId: null },
        ],
      },
    });
    const op = await operator();
    const token = await s.login(op.username, PASSWORD);
    expect((await s.call('GET', `${API.identities}?size=1`, { token })).status).toBe(403);
    const g = await s.call('POST', API.operatorGroups, {
      token: nw,
      body: { name: `Group ${++n}`, members: [op.id], grants: [{ roleId: id, divisionId: division('Security') }] },
    });
    expect(g.status).toBe(201);
    const list = await s.call('GET', `${API.identities}?size=500`, { token });
    expect(list.status).toBe(200);
    const allowed = (
      await s.db.query<{ id: number }>(
        `with recursive t as (select id from divisions where id = $1 union select d.id from divisions d join t on d.parent_id = t.id) select id from t`,
        [division('Security')],
      )
    ).rows.map((r) => r.id);
    expect(list.body.items.length).toBeGreaterThan(0);
    expect(list.body.items.every((x: any) => allowed.includes(x.divisionId))).toBe(true);
    // the privilege taken away: the next request is refused
    await s.call('POST', `${API.roles}/${id}/assign-privileges`, { token: nw, body: { privileges: [{ code: '0.1', divisionId: null }] } });
    expect((await s.call('GET', `${API.identities}?size=1`, { token })).status).toBe(403);
  });

  it("refuses another client's role or division in a group's grants, and another client's operator as member", async () => {
    const hbRole = (await s.call('GET', `${API.roles}?size=1`, { token: hb })).body.items[0].id;
    const hbOp = await operator(hb);
    const r = await s.call('POST', API.operatorGroups, {
      token: nw,
      body: { name: `Group ${++n}`, members: [hbOp.id], grants: [{ roleId: hbRole, divisionId: null }] },
    });
    expect(r.status).toBe(400);
    expect(r.body.violations.map((v: any) => v.field).sort()).toEqual(['grants.0.roleId', 'members']);
  });
});

describe('operators', () => {
  it('creates an operator only with a password that follows the policy, audited; another client sees no such operator', async () => {
    const weak = await s.call('POST', API.operators, { token: nw, body: { username: `op${++n}`, name: 'Weak', password: 'short' } });
    expect(weak.status).toBe(400);
    expect(weak.body.violations[0].field).toBe('password');
    const taken = await s.call('POST', API.operators, { token: nw, body: { username: 'admin', name: 'Dup', password: PASSWORD } });
    expect(taken.body.violations.map((v: any) => v.field)).toEqual(['username']);
    const op = await operator();
    expect((await s.db.query(`select 1 from audit_log where entity = 'operator' and action = 'create' and entity_id = $1`, [String(op.id)])).rows).toHaveLength(
      1,
    );
    expect((await s.call('POST', `${API.operators}/${op.id}/disable`, { token: hb })).status).toBe(404);
    expect((await s.call('POST', `${API.operators}/${op.id}/reset-password`, { token: hb, body: { password: PASSWORD } })).status).toBe(404);
    expect((await s.call('GET', API.operators, { token: hb })).body.items.some((x: any) => x.id === op.id)).toBe(false);
  });

  it('disables an operator (their session ends at once, they cannot sign in) and resets a password', async () => {
    const op = await operator();
    const token = await s.login(op.username, PASSWORD);
    expect((await s.call('GET', '/idp/1.0/me', { token })).status).toBe(200);
    expect((await s.call('POST', `${API.operators}/${op.id}/disable`, { token: nw })).status).toBe(200);
    expect((await s.call('GET', '/idp/1.0/me', { token })).status).toBe(401);
    expect((await s.call('POST', '/idp/1.0/login', { body: { username: op.username, password: PASSWORD } })).status).toBe(401);
    expect((await s.call('POST', `${API.operators}/${op.id}/enable`, { token: nw })).status).toBe(200);
    expect((await s.call('POST', `${API.operators}/${op.id}/reset-password`, { token: nw, body: { password: 'x' } })).status).toBe(400);
    expect((await s.call('POST', `${API.operators}/${op.id}/reset-password`, { token: nw, body: { password: 'Another-pass2' } })).status).toBe(200);
    expect((await s.call('POST', '/idp/1.0/login', { body: { username: op.username, password: 'Another-pass2' } })).status).toBe(200);
  });
});

describe('operator settings', () => {
  it('are validated and audited, and the server enforces them: password policy, history, lockout, session lifetime', async () => {
    const bad = await s.call('PUT', API.operatorSettings, { token: nw, body: { passwordMinLength: 2 } });
    expect(bad.status).toBe(400);
    const settings = {
      passwordMinLength: 12,
      passwordClasses: 4,
      passwordHistory: 2,
      passwordExpiryDays: 0,
      lockoutAttempts: 2,
      lockoutMinutes: 30,
      sessionLifetimeMinutes: 60,
      idleTimeoutMinutes: 0,
      mfaRequired: 0,
    };
    expect((await s.call('PUT', API.operatorSettings, { token: nw, body: settings })).status).toBe(200);
    expect((await s.call('GET', API.operatorSettings, { token: nw })).body).toEqual(settings);
    expect((await s.call('GET', API.operatorSettings, { token: hb })).body.passwordMinLength).not.toBe(12);
    expect((await s.db.query(`select 1 from audit_log where entity = 'operator settings'`)).rows.length).toBeGreaterThan(0);

    // policy: 12 characters and all four classes
    const short = await s.call('POST', API.operators, { token: nw, body: { username: `op${++n}`, name: 'X', password: 'Strong-pas1' } });
    expect(short.body.violations[0]).toMatchObject({ field: 'password' });
    const op = (await s.call('POST', API.operators, { token: nw, body: { username: `op${++n}`, name: 'Y', password: 'Longer-pass-12' } })).body;
    // history: the current password is refused as the new one
    const same = await s.call('POST', '/event/manage/identity/change-password', {
      body: { username: op.username, oldPassword: 'Longer-pass-12', newPassword: 'Longer-pass-12' },
    });
    expect(same.body.violations).toEqual([
      { field: 'newPassword', message: 'must not be one of your last 2 passwords', code: 'password.usedBefore', values: { n: 2 } },
    ]);
    // session lifetime: the token lives 60 minutes
    const signIn = await s.call('POST', '/idp/1.0/login', { body: { username: op.username, password: 'Longer-pass-12' } });
    const exp = JSON.parse(Buffer.from(signIn.body.token.split('.')[1], 'base64url').toString()).exp;
    expect(Math.abs(exp - Date.now() / 1000 - 3600)).toBeLessThan(60);
    // lockout after 2 failures (the server default is 5)
    for (let i = 0; i < 2; i++) expect((await s.call('POST', '/idp/1.0/login', { body: { username: op.username, password: 'wrong' } })).status).toBe(401);
    expect((await s.call('POST', '/idp/1.0/login', { body: { username: op.username, password: 'Longer-pass-12' } })).status).toBe(423);
    // a session older than the lifetime is refused on its next request
    await s.db.query(`update sessions set started_at = now() - interval '2 hours' where user_id = $1`, [op.id]);
    await s.db.query('update auth_epoch set epoch = epoch + 1');
    expect((await s.call('GET', '/idp/1.0/me', { token: signIn.body.token })).status).toBe(401);
    await s.call('PUT', API.operatorSettings, {
      token: nw,
      body: { ...settings, passwordMinLength: 8, passwordClasses: 3, passwordHistory: 0, lockoutAttempts: 5, sessionLifetimeMinutes: 480 },
    });
  });
});
