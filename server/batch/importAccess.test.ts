// A batch import is a change of identities like any other (issue 28): its one change notice goes through the
// catalogue's, so the access decisions know the imported cards at the next swipe, without a restart or another
// edit. Real server, real database (PGlite; PostgreSQL with DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let nw: string;
let northwind: number;
beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  const admin = await s.login('admin');
  northwind = (await s.call('GET', API.clients, { token: admin })).body.items.find((c: any) => c.code === 'NORTHWIND').id;
  nw = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('batch import and the access decisions', () => {
  it('a card imported by a batch is known to the next swipe', async () => {
    const door = Number((await s.db.query<{ id: number }>('select id from doors where client_id = $1 order by id limit 1', [northwind])).rows[0].id);
    const swipe = async (card: string) => {
      const res = await s.call('POST', API.testSimulate, { token: nw, body: { kind: 'card.granted', doorId: door, card } });
      expect(res.status).toBe(200);
      return (await s.db.query<{ identity_id: number | null; reason: string | null }>('select identity_id, reason from events where id = $1', [res.body.id]))
        .rows[0];
    };
    // the tenant's access index is built (and kept) with the card unknown
    expect(await swipe('CARD-IMPORTED-1')).toMatchObject({ identity_id: null });
    const division = (await s.call('GET', `${API.identities}?size=1`, { token: nw })).body.items[0].divisionId;
    const tpl = await s.call('POST', API.batchTemplates, {
      token: nw,
      body: {
        name: 'Access',
        divisionId: division,
        credentialType: 'card',
        columns: [
          { header: 'E', target: 'employeeNo' },
          { header: 'F', target: 'firstName' },
          { header: 'L', target: 'lastName' },
          { header: 'C', target: 'credentialNumber' },
        ],
      },
    });
    expect(tpl.status).toBe(201);
    const prev = await fetch(`${s.base}${API.batchUpload}?templateId=${tpl.body.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${nw}`, 'content-type': 'text/csv' },
      body: 'E,F,L,C\r\nIMP-1,Ima,Ported,CARD-IMPORTED-1\r\n',
    });
    expect(prev.status).toBe(201);
    const run = await fetch(`${s.base}${API.batchUpload}/${((await prev.json()) as any).id}/import`, { headers: { authorization: `Bearer ${nw}` } });
    expect(await run.text()).toContain('"created":1');
    const id = Number((await s.db.query<{ id: number }>(`select id from identities where employee_no = 'IMP-1'`)).rows[0].id);
    expect((await swipe('CARD-IMPORTED-1')).identity_id).toBe(id);
  });

  it('a matched identity keeps what the row leaves blank, its other cards and its access groups; the audit row is batch-update', async () => {
    const division = (await s.call('GET', `${API.identities}?size=1`, { token: nw })).body.items[0].divisionId;
    const group = (await s.call('GET', '/event/manage/access-groups?size=1', { token: nw })).body.items[0].id;
    const made = await s.call('POST', API.identities, {
      token: nw,
      body: {
        firstName: 'Kept',
        lastName: 'Fields',
        employeeNo: 'IMP-2',
        idNumber: 'ID-77',
        email: 'kept@example.test',
        divisionId: division,
        status: 'active',
        validTo: '2030-01-31',
        credentials: [{ type: 'card', number: 'CARD-OLD-2', status: 'active' }],
        accessGroupIds: [group],
      },
    });
    expect(made.status).toBe(201);
    const tpl = await s.call('POST', API.batchTemplates, {
      token: nw,
      body: {
        name: 'Merge',
        divisionId: division,
        credentialType: 'card',
        columns: [
          { header: 'E', target: 'employeeNo' },
          { header: 'F', target: 'firstName' },
          { header: 'L', target: 'lastName' },
          { header: 'M', target: 'email' },
          { header: 'C', target: 'credentialNumber' },
        ],
      },
    });
    const prev = await fetch(`${s.base}${API.batchUpload}?templateId=${tpl.body.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${nw}`, 'content-type': 'text/csv' },
      body: 'E,F,L,M,C\r\nIMP-2,Renamed,Fields,,CARD-NEW-2\r\n',
    });
    const run = await fetch(`${s.base}${API.batchUpload}/${((await prev.json()) as any).id}/import`, { headers: { authorization: `Bearer ${nw}` } });
    expect(await run.text()).toContain('"updated":1');
    const after = (await s.call('GET', `${API.identities}/${made.body.id}`, { token: nw })).body;
    expect(after).toMatchObject({ firstName: 'Renamed', idNumber: 'ID-77', email: 'kept@example.test', validTo: '2030-01-31', accessGroupIds: [group] });
    expect(after.credentials.map((c: any) => c.number).sort()).toEqual(['CARD-NEW-2', 'CARD-OLD-2']);
    const audit = (
      await s.db.query<{ action: string; before: unknown; after: any }>(
        `select action, before, after from audit_log where entity = 'identity' and entity_id = $1 order by id desc limit 1`,
        [String(made.body.id)],
      )
    ).rows[0];
    expect(audit).toMatchObject({ action: 'batch-update', before: null, after: { id: made.body.id, firstName: 'Renamed', credential: 'CARD-NEW-2', row: 2 } });
  });
});
