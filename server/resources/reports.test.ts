// The identity reports [0.6.3.0, 0.6.4.0] against the real server: each identity with its credentials and access
// groups; where each was last seen (zone and last granted badge-in, not a denied one); search, filters, CSV export,
// the client's rows only, and the report's code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityLocationResource, identityReportResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let operator: string, reception: string, harbour: string;
let who: { id: number; employee_no: string; client_id: number; last_name: string };

beforeAll(async () => {
  s = await startTestServer();
  [operator, reception, harbour] = await Promise.all([s.login('operator'), s.login('reception'), s.login('harbour')]);
  who = (
    await s.db.query<any>(`select i.id, i.employee_no, i.client_id, i.last_name from identities i join clients c on c.id = i.client_id
    where c.code = 'NORTHWIND' and exists (select 1 from access_group_members m where m.identity_id = i.id) order by i.id desc limit 1`)
  ).rows[0];
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe('identity report', () => {
  it('lists each identity with its credentials and access groups, searchable, exported, the client\u2019s only', async () => {
    const r = await s.call('GET', `${identityReportResource.api}?q=${who.employee_no}`, { token: operator });
    expect(r.status).toBe(200);
    const [row] = r.body.items;
    const creds = (await s.db.query<{ number: string }>('select number from credentials where identity_id = $1 order by number', [who.id])).rows.map(
      (x) => x.number,
    );
    const groups = (
      await s.db.query<{ name: string }>(
        'select g.name from access_group_members m join access_groups g on g.id = m.access_group_id where m.identity_id = $1 order by g.name',
        [who.id],
      )
    ).rows.map((x) => x.name);
    expect(groups.length).toBeGreaterThan(0);
    expect(row).toMatchObject({ id: who.id, employeeNo: who.employee_no, credentialNumbers: creds.join(', '), accessGroupNames: groups.join(', ') });
    expect(typeof row.divisionName).toBe('string');
    const csv = await s.call('GET', `${identityReportResource.api}/export?format=csv&q=${who.employee_no}`, { token: operator });
    expect(csv.status).toBe(200);
    expect(String(csv.body)).toContain(who.employee_no);
    expect((await s.call('GET', `${identityReportResource.api}?q=${who.employee_no}`, { token: harbour })).body.items).toEqual([]);
    expect((await s.call('GET', identityReportResource.api, { token: reception })).status).toBe(403);
    // nothing is changed here
    expect([404, 405]).toContain((await s.call('PUT', `${identityReportResource.api}/${who.id}`, { token: operator, body: {} })).status);
  });
});

describe('identity location report', () => {
  it('says where an identity was last seen: its zone and its last granted badge-in, a denied one not counted', async () => {
    const door = (await s.db.query<{ id: number; name: string }>('select id, name from doors where client_id = $1 order by id limit 1', [who.client_id]))
      .rows[0];
    const zone = (await s.db.query<{ id: number; name: string }>('select id, name from access_zones where client_id = $1 order by id limit 1', [who.client_id]))
      .rows[0];
    const at = new Date(Date.now() + 60_000).toISOString(); // the latest of its badge-ins
    await s.db.query(
      `insert into events (client_id, event_code, event_source_id, event_point_id, event_point_name, message, identity_id, decision, at)
      values ($1, 5000, $2, $2, $3, 'test', $4, 'granted', $5), ($1, 5006, 'x', 'x', 'Server room', 'test', $4, 'denied', $6)`,
      [who.client_id, String(door.id), door.name, who.id, at, new Date(Date.now() + 120_000).toISOString()],
    );
    if (zone)
      await s.db.query(
        `insert into zone_presence (identity_id, client_id, zone_id, at) values ($1, $2, $3, $4) on conflict (identity_id) do update set zone_id = excluded.zone_id, at = excluded.at`,
        [who.id, who.client_id, zone.id, at],
      );
    const r = await s.call('GET', `${identityLocationResource.api}?q=${who.employee_no}`, { token: operator });
    expect(r.status).toBe(200);
    expect(r.body.items[0]).toMatchObject({ id: who.id, lastDoor: door.name, lastSeenAt: at, ...(zone ? { zone: zone.name, zoneSince: at } : {}) });
    // one never seen has no place
    const never = (
      await s.db.query<{ employee_no: string }>(
        `select employee_no from identities i where client_id = $1
      and not exists (select 1 from events e where e.identity_id = i.id and e.event_code = 5000) order by id limit 1`,
        [who.client_id],
      )
    ).rows[0];
    const none = await s.call('GET', `${identityLocationResource.api}?q=${never.employee_no}`, { token: operator });
    expect(none.body.items[0]).toMatchObject({ lastDoor: null, lastSeenAt: null });
    expect((await s.call('GET', identityLocationResource.api, { token: reception })).status).toBe(403);
  });
});
