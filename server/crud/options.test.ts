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
