// Alarm groups (issue 12): an input of an armed group raises an intrusion alarm (priority 1) and going back to
// normal returns it to normal; disarmed, the same input is an ordinary event; arming is a named action with its
// privilege, audited, 409 when already armed, 404 for another tenant's group.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EVENT_CODES, alarmGroupsResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, operator: string, hr: string, harbour: string;
let northwind: number;
const GROUPS = alarmGroupsResource.api;

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  [admin, operator, hr, harbour] = await Promise.all(['admin', 'operator', 'hr', 'harbour'].map((u) => s.login(u)));
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  admin = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const input = async (name: string) =>
  Number((await s.db.query<{ id: number }>('select id from inputs where client_id = $1 and name = $2', [northwind, name])).rows[0].id);
const trip = (inputId: number, kind: 'input.active' | 'input.normal') => s.call('POST', API.testSimulate, { token: admin, body: { kind, inputId } });
const alarmOf = async (eventId: string | number) =>
  (await s.db.query<{ priority: number; state: string }>('select priority, state from alarms where event_id = $1', [eventId])).rows[0];

describe('alarm groups', () => {
  it('an input of an armed group raises an intrusion alarm; disarmed it is an ordinary event', async () => {
    const contact = await input('Loading Bay contact');
    const created = await s.call('POST', GROUPS, { token: admin, body: { name: 'Perimeter', description: 'Dock and yard', inputIds: [contact] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ state: 'disarmed', stateChangedAt: null, inputIds: [contact] });
    const id = created.body.id;

    const quiet = await trip(contact, 'input.active');
    expect(quiet.body.eventCode).toBe(EVENT_CODES.inputActive);
    expect(await alarmOf(quiet.body.id)).toBeUndefined();

    expect((await s.call('POST', `${GROUPS}/${id}/arm`, { token: hr })).status).toBe(403);
    expect((await s.call('POST', `${GROUPS}/${id}/arm`, { token: harbour })).status).toBe(404);
    const armed = await s.call('POST', `${GROUPS}/${id}/arm`, { token: operator });
    expect(armed.status).toBe(200);
    expect(armed.body).toMatchObject({ state: 'armed', stateChangedBy: 'operator' });
    expect(armed.body.stateChangedAt).toEqual(expect.any(String));
    expect((await s.call('POST', `${GROUPS}/${id}/arm`, { token: operator })).status).toBe(409);
    const audit = await s.db.query<any>(`select action, before, after from audit_log where entity = 'alarm group' and entity_id = $1 order by id`, [
      String(id),
    ]);
    expect(audit.rows.at(-1)).toMatchObject({ action: 'arm', before: { state: 'disarmed' }, after: { state: 'armed' } });

    const intrusion = await trip(contact, 'input.active');
    expect(intrusion.body.eventCode).toBe(EVENT_CODES.intrusion);
    expect(intrusion.body.message).toContain('Perimeter');
    expect(await alarmOf(intrusion.body.id)).toEqual({ priority: 1, state: 'raised' });
    await trip(contact, 'input.normal');
    expect((await alarmOf(intrusion.body.id)).state).toBe('processed');

    expect((await s.call('POST', `${GROUPS}/${id}/disarm`, { token: operator })).body.state).toBe('disarmed');
    const after = await trip(contact, 'input.active');
    expect(after.body.eventCode).toBe(EVENT_CODES.inputActive);
    expect(await alarmOf(after.body.id)).toBeUndefined();
    // another tenant's input is not found
    const theirs = Number((await s.db.query<{ id: number }>(`select id from inputs where client_id <> $1 order by id limit 1`, [northwind])).rows[0].id);
    expect((await trip(theirs, 'input.active')).status).toBe(404);
  });
});
