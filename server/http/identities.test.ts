import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let nw: string; // Northwind administrator (admin, client selected)
let hb: string; // Harbour administrator
let hbIdentity: any;
let nwDivision: number;

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.login('admin');
  const clients = await s.call('GET', '/central/1.0/clients', { token: admin });
  const northwind = clients.body.items.find((c: any) => c.code === 'NORTHWIND').id;
  nw = (await s.call('PUT', '/idp/1.0/me/client', { token: admin, body: { clientId: northwind } })).body.token;
  hb = await s.login('harbour');
  hbIdentity = (await s.call('GET', '/event/manage/identities?size=1', { token: hb })).body.items[0];
  nwDivision = (await s.call('GET', '/event/manage/divisions', { token: nw })).body.items[1].id;
});
afterAll(async () => {
  await s.close();
});

const valid = (over: Record<string, unknown> = {}) => ({
  firstName: 'Nur',
  lastName: 'Aziz',
  employeeNo: 'NW-T0001',
  email: 'nur@northwind.example',
  divisionId: nwDivision,
  credentials: [
    { type: 'card', number: '9000001' },
    { type: 'pin', number: '4321' },
  ],
  ...over,
});

describe('identities', () => {
  it('creates an identity with credentials as repeated rows and audits it with before/after', async () => {
    const r = await s.call('POST', '/event/manage/identities', { token: nw, body: valid() });
    expect(r.status).toBe(201);
    expect(r.body.credentials.map((c: any) => c.number)).toEqual(['9000001', '4321']);
    const audit = await s.call('GET', '/event/manage/audit?size=5', { token: nw });
    expect(audit.body.items[0]).toMatchObject({ actor: 'admin', action: 'create', entity: 'identity', entityId: String(r.body.id), before: null });
    expect(audit.body.items[0].after.employeeNo).toBe('NW-T0001');

    const u = await s.call('PUT', `/event/manage/identities/${r.body.id}`, {
      token: nw,
      body: valid({ lastName: 'Aziz-Rahman', credentials: [{ type: 'card', number: '9000001' }] }),
    });
    expect(u.status).toBe(200);
    expect(u.body.credentials).toHaveLength(1);
    const after = await s.call('GET', '/event/manage/audit?size=1', { token: nw });
    expect(after.body.items[0].before.lastName).toBe('Aziz');
    expect(after.body.items[0].after.lastName).toBe('Aziz-Rahman');
  });

  it('rejects bad input with violations naming nested fields and changes nothing', async () => {
    const before = await s.count('select * from identities');
    const auditBefore = await s.count('select * from audit_log');
    const r = await s.call('POST', '/event/manage/identities', {
      token: nw,
      body: valid({
        firstName: '',
        employeeNo: 'lower-case',
        credentials: [
          { type: 'card', number: 'OK1' },
          { type: 'laser', number: '' },
        ],
      }),
    });
    expect(r.status).toBe(400);
    const fields = r.body.violations.map((v: any) => v.field);
    expect(fields).toEqual(expect.arrayContaining(['firstName', 'employeeNo', 'credentials.1.type', 'credentials.1.number']));
    const dup = await s.call('POST', '/event/manage/identities', {
      token: nw,
      body: valid({ employeeNo: 'NW-T0002', credentials: [{ type: 'card', number: '1100001' }] }),
    });
    expect(dup.status).toBe(400);
    expect(dup.body.violations[0]).toEqual({
      field: 'credentials.0.number',
      message: 'is already issued to another identity',
      code: 'resource.identities.child.credentials.unique.number',
      values: {},
    });
    const garbage = await s.call('POST', '/event/manage/identities', { token: nw, raw: '{"firstName":' });
    expect(garbage.status).toBe(400);
    expect(await s.count('select * from identities')).toBe(before);
    expect(await s.count('select * from audit_log')).toBe(auditBefore);
  });

  it('lists with paging, sort and filter, in pages of 100 by default', async () => {
    const page = await s.call('GET', '/event/manage/identities?page=1&size=5&sort=employeeNo,desc', { token: nw });
    expect(page.body).toMatchObject({ page: 1, size: 5 });
    expect(page.body.items).toHaveLength(5);
    const nos = page.body.items.map((i: any) => i.employeeNo);
    expect([...nos].sort().reverse()).toEqual(nos);
    const all = await s.call('GET', '/event/manage/identities', { token: nw });
    expect(all.body.size).toBe(100);
    expect(all.body.total).toBe(page.body.total);
    const filtered = await s.call('GET', '/event/manage/identities?q=NW-T0001', { token: nw });
    expect(filtered.body.items.map((i: any) => i.employeeNo)).toEqual(['NW-T0001']);
    expect((await s.call('GET', '/event/manage/identities?sort=password,asc', { token: nw })).status).toBe(400);
  });
});

describe('tenant isolation', () => {
  it("never shows another client's identity in a list or by id", async () => {
    const list = await s.call('GET', '/event/manage/identities?size=1000', { token: nw });
    expect(list.body.items.every((i: any) => i.clientId === list.body.items[0].clientId)).toBe(true);
    expect(list.body.items.some((i: any) => i.id === hbIdentity.id)).toBe(false);
    expect((await s.call('GET', `/event/manage/identities/${hbIdentity.id}`, { token: nw })).status).toBe(404);
    const search = await s.call('GET', `/event/manage/identities?q=${encodeURIComponent(hbIdentity.employeeNo)}`, { token: nw });
    expect(search.body.total).toBe(0);
  });

  it("cannot change or delete another client's identity, and nothing changes", async () => {
    const put = await s.call('PUT', `/event/manage/identities/${hbIdentity.id}`, { token: nw, body: valid({ employeeNo: 'NW-STEAL' }) });
    expect(put.status).toBe(404);
    const del = await s.call('POST', '/event/manage/identities/bulk-delete', { token: nw, body: { ids: [hbIdentity.id] } });
    expect(del.status).toBe(404);
    const still = await s.call('GET', `/event/manage/identities/${hbIdentity.id}`, { token: hb });
    expect(still.status).toBe(200);
    expect(still.body.employeeNo).toBe(hbIdentity.employeeNo);
  });

  it("cannot put an identity into another client's division", async () => {
    const hbDivision = (await s.call('GET', '/event/manage/divisions', { token: hb })).body.items[0].id;
    const r = await s.call('POST', '/event/manage/identities', { token: nw, body: valid({ employeeNo: 'NW-T0009', divisionId: hbDivision, credentials: [] }) });
    expect(r.status).toBe(400);
    expect(r.body.violations[0].field).toBe('divisionId');
  });

  it('bulk-deletes own identities in one go, all or nothing', async () => {
    const mine = (await s.call('GET', '/event/manage/identities?size=2&sort=employeeNo,asc', { token: nw })).body.items.map((i: any) => i.id);
    const mixed = await s.call('POST', '/event/manage/identities/bulk-delete', { token: nw, body: { ids: [...mine, hbIdentity.id] } });
    expect(mixed.status).toBe(404);
    expect((await s.call('GET', `/event/manage/identities/${mine[0]}`, { token: nw })).status).toBe(200);
    const ok = await s.call('POST', '/event/manage/identities/bulk-delete', { token: nw, body: { ids: mine } });
    expect(ok.body).toEqual({ deleted: 2 });
    expect((await s.call('GET', `/event/manage/identities/${mine[0]}`, { token: nw })).status).toBe(404);
  });
});

describe('division scoping', () => {
  it('limits a grant to its division and the divisions below it', async () => {
    // give the HR manager one grant on Security, which has teams below it (Control Room, Patrol)
    const hr = await s.db.query<{ id: number }>(`select id from users where username = 'hr'`);
    await s.db.query('delete from user_grants where user_id = $1', [hr.rows[0].id]);
    await s.db.query(
      `insert into user_grants (user_id, role_code, client_id, division_id) select $1, 'hr-manager', client_id, id from divisions where id = $2`,
      [hr.rows[0].id, nwDivision],
    );
    const all = (await s.call('GET', '/event/manage/divisions', { token: nw })).body.items;
    const covered = all
      .filter((d: any) => d.id === nwDivision || d.parentId === nwDivision)
      .map((d: any) => d.id)
      .sort();
    expect(covered.length).toBe(3);
    const token = await s.login('hr');
    expect((await s.call('GET', '/event/manage/divisions', { token })).body.items.map((d: any) => d.id).sort()).toEqual(covered);
    const list = await s.call('GET', '/event/manage/identities?size=1000', { token });
    expect(list.body.total).toBeGreaterThan(0);
    expect(list.body.items.every((i: any) => covered.includes(i.divisionId))).toBe(true);
    expect(list.body.items.some((i: any) => i.divisionId !== nwDivision)).toBe(true); // a team below Security
    const other = (await s.call('GET', '/event/manage/identities?size=1000', { token: nw })).body.items.find((i: any) => !covered.includes(i.divisionId));
    expect((await s.call('GET', `/event/manage/identities/${other.id}`, { token })).status).toBe(404);
    const outside = await s.call('POST', '/event/manage/identities', {
      token,
      body: valid({ employeeNo: 'NW-T0777', divisionId: other.divisionId, credentials: [] }),
    });
    expect(outside.status).toBe(400);
    expect(outside.body.violations).toEqual([
      { field: 'divisionId', message: 'is not a division you may use', code: 'record.notYoursToUse', values: { what: 'division' } },
    ]);
  });
});

describe('clients', () => {
  it('creates a client (code upper-case only), grants the creator and audits it', async () => {
    const bad = await s.call('POST', '/central/1.0/clients', { token: nw, body: { name: 'X', code: 'lower', timezone: 'UTC' } });
    expect(bad.status).toBe(400);
    expect(bad.body.violations[0].field).toBe('code');
    const r = await s.call('POST', '/central/1.0/clients', { token: nw, body: { name: 'Kestrel Labs', code: 'KESTREL', timezone: 'UTC' } });
    expect(r.status).toBe(201);
    const list = await s.call('GET', '/central/1.0/clients?sort=name,asc', { token: nw });
    expect(list.body.items.map((c: any) => c.code)).toContain('KESTREL');
    const hbList = await s.call('GET', '/central/1.0/clients', { token: hb });
    expect(hbList.status).toBe(200);
    expect(hbList.body.items.map((c: any) => c.code)).toEqual(['HARBOUR']);
    expect((await s.call('GET', `/central/1.0/clients/${r.body.id}`, { token: hb })).status).toBe(404);
    expect((await s.call('PUT', `/central/1.0/clients/${r.body.id}`, { token: hb, body: { name: 'Stolen', code: 'KESTREL', timezone: 'UTC' } })).status).toBe(
      404,
    );
  });

  it('serves the dashboard summary of the selected client only', async () => {
    const a = await s.call('GET', '/event/manage/dashboard', { token: nw });
    const b = await s.call('GET', '/event/manage/dashboard', { token: hb });
    expect(a.body.doors).toBe(10);
    expect(b.body.identities).toBe(12);
    expect(a.body.recentChanges.length).toBeGreaterThan(0);
    expect(b.body.recentChanges.every((c: any) => c.actor !== 'admin')).toBe(true);
  });

  it('accepts UI error reports from anyone signed in and lists them to administrators', async () => {
    const op = await s.login('operator');
    expect((await s.call('POST', '/central/1.0/ui-errors', { token: op, body: { message: 'boom', url: '/x' } })).status).toBe(201);
    expect((await s.call('GET', '/central/1.0/ui-errors', { token: op })).status).toBe(403);
    const list = await s.call('GET', '/central/1.0/ui-errors', { token: nw });
    expect(list.body.items[0]).toMatchObject({ message: 'boom', url: '/x' });
  });
});
