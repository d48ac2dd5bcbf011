// Issue 29: a picker's options carry what tells two rows of one title apart ('Abdullah, Priya' twice: employee no.
// and division), from the declaration (apartFieldsOf), for every resource a picker reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, CATALOGUE, apartFieldsOf, identitiesResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = await s.loginTo('admin', 'NORTHWIND');
});
afterAll(async () => {
  await s?.close();
});

describe('picker options', () => {
  it('give a viewer of a record the names of the rows it names, never a search of them (a team’s leave approvers)', async () => {
    // found by the matrix walk (hr at Attendance → Teams → a team): the form asked the approvers' names, 403 (the
    // operators' picker answered operator-group viewers only); who edits teams picks approvers, who views them reads them
    const adminId = Number((await s.db.query<{ id: number }>(`select id from users where username = 'admin'`)).rows[0].id);
    const hr = await s.login('hr'); // edits teams: picks approvers
    expect((await s.call('GET', `${API.operators}/options?q=Alex`, { token: hr })).body.items).toEqual([
      expect.objectContaining({ id: adminId, label: expect.stringContaining('Alex Admin') }),
    ]);
    // an operator whose role only views teams
    const made = await s.call('POST', API.roles, { token, body: { name: 'Team viewer', code: 'team-viewer' } });
    expect(made.status).toBe(201);
    expect(
      (await s.call('POST', `${API.roles}/${made.body.id}/assign-privileges`, { token, body: { privileges: [{ code: '3.0.0', divisionId: null }] } })).status,
    ).toBe(200);
    const op = await s.call('POST', API.operators, { token, body: { username: 'team-viewer', name: 'Tia Viewer', password: 'Gatehouse1!' } });
    expect(op.status).toBe(201);
    await s.db.query(`insert into user_grants (user_id, role_id, role_code, client_id) select $1, r.id, r.code, r.client_id from roles r where r.id = $2`, [
      op.body.id,
      made.body.id,
    ]);
    const viewer = await s.login('team-viewer');
    const named = await s.call('GET', `${API.operators}/options?ids=${adminId}`, { token: viewer });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body.items).toEqual([expect.objectContaining({ id: adminId, label: expect.stringContaining('Alex Admin') })]);
    expect((await s.call('GET', `${API.operators}/options?q=a`, { token: viewer })).status).toBe(403);
    expect((await s.call('GET', `${API.operators}/options`, { token: viewer })).status).toBe(403);
    // who sees no record naming operators has not even their names
    expect((await s.call('GET', `${API.operators}/options?ids=${adminId}`, { token: await s.login('staff') })).status).toBe(403);
  });
  it('tell two people of one name apart by employee no. and division', async () => {
    // two namesakes in two divisions (the demo data has them too, as any organisation of size does)
    const divisions = (await s.call('GET', `${API.divisions}?size=10`, { token })).body.items as { id: number; name: string }[];
    expect(divisions.length).toBeGreaterThan(1);
    const name = 'Abdullah, Priya';
    const twins: { id: number; employeeNo: string; divisionName: string }[] = [];
    for (const [i, d] of divisions.slice(0, 2).entries()) {
      const made = await s.call('POST', identitiesResource.api, {
        token,
        body: { firstName: 'Priya', lastName: 'Abdullah', employeeNo: `TWIN-${i + 1}`, divisionId: d.id, status: 'active', credentials: [] },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      twins.push({ id: made.body.id, employeeNo: `TWIN-${i + 1}`, divisionName: d.name });
    }
    const r = await s.call('GET', `${identitiesResource.api}/options?ids=${twins.map((p) => p.id).join(',')}`, { token });
    expect(r.status).toBe(200);
    const items = r.body.items as { id: number; label: string; detail: string | null }[];
    expect(items.map((o) => o.label)).toEqual(twins.map(() => name));
    for (const p of twins) {
      expect(items.find((o) => o.id === p.id)!.detail).toBe([p.employeeNo, p.divisionName].filter(Boolean).join(' · '));
    }
    expect(new Set(items.map((o) => o.detail)).size).toBe(twins.length);
  });

  it('answer a detail field for every resource a picker reads, from fields the resource declares', async () => {
    // the loops below assert nothing over empty lists: how many fields, routes and options they saw is checked after
    let fields = 0;
    let routes = 0;
    let options = 0;
    let detailed = 0;
    for (const r of CATALOGUE.filter((d) => d.routes !== false && !d.singleton)) {
      for (const k of apartFieldsOf(r)) {
        expect(Object.keys(r.fields), `${r.name}.${k}`).toContain(k);
        fields++;
      }
      const answer = await s.call('GET', `${r.api}/options`, { token });
      if (answer.status === 403 || answer.status === 404) continue; // a platform resource or one with no options route
      expect(answer.status, r.name).toBe(200);
      routes++;
      for (const o of answer.body.items as { detail?: unknown }[]) {
        expect(o.detail === null || typeof o.detail === 'string', r.name).toBe(true);
        options++;
        if (typeof o.detail === 'string') detailed++;
      }
    }
    expect(fields).toBeGreaterThan(0);
    expect(routes).toBeGreaterThan(5);
    expect(options).toBeGreaterThan(routes);
    expect(detailed).toBeGreaterThan(0);
  });
});
