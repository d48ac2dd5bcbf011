// Alarm management (issue 50) on the real server and database: escalation steps due at raised_at + n × the priority's
// acknowledge target (the sweep is given the time to look at: no waiting), each step once, in the alarm's history,
// audited, told to the consoles and to web hooks, carried on by a second management over the same database (a
// restarted server); shelving a source (its alarms still stored, kept off the open list and count, back when the time
// ends or an operator ends it); forwarding with a note; privileges, another tenant and bad bodies change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IMessage } from '@stomp/stompjs';
import { API, DESTINATIONS, SOCKJS_PREFIX, alarmShelvingsResource } from '../../contract';
import { startTestServer, tablesSnapshot, type TestServer } from '../testkit';
import { stompClient, waitFor, type TestClient } from '../realtime/testkit';
import { createAlarmManagement } from './management';

let s: TestServer;
let admin: string, operator: string, auditor: string, harbour: string;
let northwind: number, harbourId: number;
let first: number, second: number, operatorId: number;
const clients: TestClient[] = [];
const SHELVINGS = alarmShelvingsResource.api;
const TARGET_MIN = 30; // P1's acknowledge target here: far beyond the test's own run, so the server's own sweep takes no step
const sweep = (at: Date) => s.app.alarmManagement.sweep(at);
const later = (d: Date, minutes: number, seconds = 0) => new Date(d.getTime() + minutes * 60_000 + seconds * 1000);

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  harbourId = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'HARBOUR'`)).rows[0].id);
  admin = await s.loginTo('admin', 'NORTHWIND');
  [operator, auditor, harbour] = await Promise.all(['operator', 'auditor', 'harbour'].map((u) => s.login(u)));
  operatorId = Number((await s.db.query<{ id: number }>(`select id from users where username = 'operator'`)).rows[0].id);
  const group = async (name: string) => {
    const { rows } = await s.db.query<{ id: number }>('insert into operator_groups (client_id, name) values ($1,$2) returning id', [northwind, name]);
    return Number(rows[0].id);
  };
  first = await group('Escalation desk');
  second = await group('Duty manager');
  await s.db.query('insert into operator_group_members (group_id, user_id) values ($1,$2)', [first, operatorId]);
  // the settings as the form saves them (the singleton is made on first read)
  expect((await s.call('GET', '/event/manage/alarm-settings', { token: admin })).status).toBe(200);
  await s.db.query('update alarm_settings set ack_p1_minutes = $2, escalate_group1_id = $3, escalate_group2_id = $4 where client_id = $1', [
    northwind,
    TARGET_MIN,
    first,
    second,
  ]);
});
afterAll(async () => {
  for (const c of clients) await c.client.deactivate({ force: true });
  await s?.close();
});

const doorOf = async (clientId: number, n: number) =>
  Number((await s.db.query<{ id: number }>('select id from doors where client_id = $1 order by id offset $2 limit 1', [clientId, n])).rows[0].id);
async function raise(door: number, token = admin, kind = 'door.forced') {
  const r = await s.call('POST', API.testSimulate, { token, body: { kind, doorId: door } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { id: number; eventPointId: string; shelved?: boolean };
}
const raisedAt = async (id: number) =>
  new Date((await s.db.query<{ raised_at: Date }>('select raised_at from alarms where event_id = $1', [id])).rows[0].raised_at);
const alarmRow = async (id: number) => (await s.db.query<any>('select * from alarms where event_id = $1', [id])).rows[0];
const history = async (id: number) =>
  (await s.db.query<any>('select action, actor, note, step, to_group_id from alarm_history where alarm_id = $1 order by id', [id])).rows;
const openIds = async (token = admin) => ((await s.call('GET', API.alarms, { token })).body as { id: number }[]).map((a) => a.id);

async function console_(token: string): Promise<TestClient & { on(d: string): IMessage[] }> {
  const c = stompClient(`${s.base}${SOCKJS_PREFIX.event}`, { Authorization: `Bearer ${token}` });
  clients.push(c);
  await waitFor(() => c.connected || c.errors[0], 'CONNECTED');
  for (const d of [DESTINATIONS.alarmAction, DESTINATIONS.alarmNotice, DESTINATIONS.events]) {
    let done = false;
    c.client.watchForReceipt(`r-${d}`, () => {
      done = true;
    });
    c.subscribe(d, { receipt: `r-${d}` });
    await waitFor(() => done, `receipt ${d}`);
  }
  return Object.assign(c, { on: (d: string) => c.messages.filter((m) => m.headers.destination === d) });
}
const bodies = (ms: IMessage[]) => ms.map((m) => JSON.parse(m.body));

describe('escalation', () => {
  it('escalates an unacknowledged alarm to the first group at its target and to the second one target later, once each', async () => {
    const hook = await s.db.query<{ id: number }>(
      `insert into web_hooks (client_id, name, url, secret, active, alarm_escalated) values ($1,'Escalations','http://127.0.0.1:9/x','a-secret-of-some-length-1234',true,true) returning id`,
      [northwind],
    );
    const nw = await console_(operator);
    const alarm = await raise(await doorOf(northwind, 0));
    const r = await raisedAt(alarm.id);

    expect(await sweep(later(r, TARGET_MIN, -1))).toMatchObject({ escalated: 0 });
    expect((await alarmRow(alarm.id)).escalation_step).toBe(0);

    expect((await sweep(later(r, TARGET_MIN))).escalated).toBe(1);
    expect(await alarmRow(alarm.id)).toMatchObject({ escalation_step: 1, escalated_to_group_id: first });
    expect((await sweep(later(r, TARGET_MIN, 30))).escalated).toBe(0); // a step is taken once
    const lines = (await history(alarm.id)).filter((h) => h.action === 'escalated');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ actor: 'system', step: 1, to_group_id: first });
    expect(lines[0].note).toMatch(/Escalation desk \(step 1 of 2\)/);
    expect(
      await s.count(`select 1 from audit_log where entity = 'alarm' and entity_id = $1 and action = 'escalate' and actor = 'system'`, [String(alarm.id)]),
    ).toBe(1);
    // the web hook's delivery, written in the step's transaction
    const out = await s.db.query<{ body: any }>(`select body from webhook_outbox where hook_id = $1 and event_type = 'alarm.escalated'`, [hook.rows[0].id]);
    expect(out.rows).toHaveLength(1);
    expect(out.rows[0].body.data).toMatchObject({ eventId: alarm.id, step: 1, operatorGroupId: first, operatorGroupName: 'Escalation desk' });
    await s.db.query('delete from web_hooks where id = $1', [hook.rows[0].id]); // no receiver: its retries would change tables later
    // on screen: the consoles hear the step, the group's member a notice
    const heard = await waitFor(
      () => bodies(nw.on(DESTINATIONS.alarmAction)).find((b) => b.change === 'escalated' && b.alarmId === alarm.id),
      'the escalation',
    );
    expect(heard).toMatchObject({ process: false, escalationStep: 1, escalatedTo: 'Escalation desk' });
    await waitFor(
      () => bodies(nw.on(DESTINATIONS.alarmNotice)).find((b) => b.eventId === alarm.id && /Escalated to Escalation desk/.test(b.name)),
      'the notice',
    );
    expect((await s.call('GET', API.alarms, { token: admin })).body.find((a: any) => a.id === alarm.id)).toMatchObject({
      escalationStep: 1,
      escalatedTo: 'Escalation desk',
    });

    // a restarted server: nothing but the database carries the next step
    const restarted = createAlarmManagement(s.db, () => {});
    expect((await restarted.sweep(later(r, 2 * TARGET_MIN, -1))).escalated).toBe(0);
    expect((await restarted.sweep(later(r, 2 * TARGET_MIN))).escalated).toBe(1);
    expect(await alarmRow(alarm.id)).toMatchObject({ escalation_step: 2, escalated_to_group_id: second });
    // two groups: no third step, however late
    expect((await sweep(later(r, 10 * TARGET_MIN))).escalated).toBe(0);
    expect((await alarmRow(alarm.id)).escalation_step).toBe(2);
  });

  it('leaves an acknowledged alarm, and a client without escalation groups, where they are', async () => {
    const acked = await raise(await doorOf(northwind, 1));
    expect((await s.call('POST', `${API.alarms}/${acked.id}/acknowledge`, { token: operator })).status).toBe(200);
    const theirs = await raise(await doorOf(harbourId, 0), harbour);
    await sweep(later(await raisedAt(theirs.id), 24 * 60));
    expect((await alarmRow(acked.id)).escalation_step).toBe(0);
    expect((await alarmRow(theirs.id)).escalation_step).toBe(0);
  });
});

describe('shelving', () => {
  it('keeps a shelved source off the open list and count while it still records, and brings it back when the time ends', async () => {
    const door = await doorOf(northwind, 2);
    const before = await raise(door);
    expect(await openIds()).toContain(before.id);
    const shelved = await s.call('POST', `${API.alarms}/shelve`, {
      token: operator,
      body: { pointId: before.eventPointId, minutes: 120, reason: 'Contractor testing the door' },
    });
    expect(shelved.status, JSON.stringify(shelved.body)).toBe(200);
    expect(shelved.body).toMatchObject({ pointId: before.eventPointId, minutes: 120, shelvedBy: 'operator' });
    expect(await openIds()).not.toContain(before.id);
    expect(await s.count(`select 1 from audit_log where entity = 'alarmShelving' and action = 'shelve' and actor = 'operator'`)).toBe(1);

    // raised again while shelved: stored, in its history, told as shelved, not open on any console
    const during = await raise(door);
    expect(during.shelved).toBe(true);
    expect(await alarmRow(during.id)).toMatchObject({ state: 'raised', shelved: true, shelving_id: shelved.body.id });
    expect((await history(during.id)).map((h) => h.action)).toEqual(['raised', 'shelved']);
    expect(await openIds()).not.toContain(during.id);
    const count = (await s.call('GET', `${API.alarms}/count`, { token: admin })).body.count;
    expect(count).toBe((await openIds()).length);
    // and never escalated while shelved (three targets on, within the shelving's two hours)
    expect((await sweep(later(await raisedAt(during.id), 3 * TARGET_MIN, 1))).unshelved).toBe(0);
    expect((await alarmRow(during.id)).escalation_step).toBe(0);

    // in the one list of shelvings, running
    const list = await s.call('GET', `${SHELVINGS}?size=50`, { token: auditor });
    expect(list.status).toBe(200);
    expect(list.body.items.find((r: any) => r.id === shelved.body.id)).toMatchObject({
      state: 'shelved',
      reason: 'Contractor testing the door',
      shelvedBy: 'operator',
    });
    // shelved twice: refused
    expect(
      (await s.call('POST', `${API.alarms}/shelve`, { token: operator, body: { pointId: before.eventPointId, minutes: 5, reason: 'again' } })).status,
    ).toBe(409);

    const until = new Date(shelved.body.until);
    expect((await sweep(later(until, 0, -1))).unshelved).toBe(0);
    expect((await sweep(until)).unshelved).toBe(1);
    expect(await openIds()).toEqual(expect.arrayContaining([before.id, during.id]));
    expect((await history(during.id)).at(-1)).toMatchObject({ action: 'unshelved', actor: 'system' });
    // its escalation counts from its return, not from its raising two hours before
    expect((await sweep(later(until, TARGET_MIN, -1))).escalated).toBe(0);
    expect((await alarmRow(during.id)).escalation_step).toBe(0);
    await sweep(later(until, TARGET_MIN));
    expect((await alarmRow(during.id)).escalation_step).toBe(1);
    const row = (await s.call('GET', `${SHELVINGS}/${shelved.body.id}`, { token: admin })).body;
    expect(row).toMatchObject({ state: 'expired' });
    expect(Date.parse(row.endedAt)).toBe(until.getTime());
    expect(await s.count(`select 1 from audit_log where entity = 'alarmShelving' and action = 'unshelve' and actor = 'system'`)).toBe(1);
  });

  it('ends a shelving sooner when an operator says so, once', async () => {
    const alarm = await raise(await doorOf(northwind, 3));
    const shelved = (
      await s.call('POST', `${API.alarms}/shelve`, { token: operator, body: { pointId: alarm.eventPointId, minutes: 60, reason: 'Sensor fault' } })
    ).body;
    expect(await openIds()).not.toContain(alarm.id);
    expect((await s.call('POST', `${SHELVINGS}/${shelved.id}/end`, { token: auditor })).status).toBe(403);
    expect((await s.call('POST', `${SHELVINGS}/${shelved.id}/end`, { token: harbour })).status).toBe(404);
    const ended = await s.call('POST', `${SHELVINGS}/${shelved.id}/end`, { token: operator });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body).toMatchObject({ state: 'ended', endedBy: 'operator' });
    expect(await openIds()).toContain(alarm.id);
    expect((await s.call('POST', `${SHELVINGS}/${shelved.id}/end`, { token: operator })).status).toBe(409);
  });

  it('refuses a shelving without the privilege, of another client’s source, or with a bad body, changing nothing', async () => {
    const alarm = await raise(await doorOf(northwind, 4));
    const snap = await tablesSnapshot(s.db);
    const shelve = (token: string, b: unknown) => s.call('POST', `${API.alarms}/shelve`, { token, body: b });
    expect((await shelve(auditor, { pointId: alarm.eventPointId, minutes: 5, reason: 'x' })).status).toBe(403);
    const other = await shelve(harbour, { pointId: alarm.eventPointId, minutes: 5, reason: 'x' });
    expect(other.status).toBe(400);
    expect(other.body.violations).toEqual([expect.objectContaining({ field: 'pointId' })]);
    const bad = await shelve(operator, { pointId: alarm.eventPointId, minutes: 0, reason: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.violations.map((v: any) => v.field).sort()).toEqual(['minutes', 'reason']);
    expect((await shelve(operator, { pointId: alarm.eventPointId, minutes: 10_081, reason: 'a week and a minute' })).status).toBe(400);
    expect(await tablesSnapshot(s.db)).toBe(snap);
    // Harbour sees none of Northwind's shelvings
    expect((await s.call('GET', SHELVINGS, { token: harbour })).body.items).toEqual([]);
  });
});

describe('forwarding', () => {
  it('forwards an alarm to an operator or a group with a note: in its history, audited, on the open list, told to them', async () => {
    const nw = await console_(operator);
    const alarm = await raise(await doorOf(northwind, 5));
    const targets = await s.call('GET', `${API.alarms}/forward-targets`, { token: operator });
    expect(targets.status).toBe(200);
    expect(targets.body.groups.map((g: any) => g.name)).toEqual(expect.arrayContaining(['Escalation desk', 'Duty manager']));
    expect(targets.body.operators.some((o: any) => o.username === 'operator')).toBe(true);
    expect(targets.body.operators.some((o: any) => o.username === 'harbour')).toBe(false);

    const toUser = await s.call('POST', `${API.alarms}/${alarm.id}/forward`, { token: admin, body: { userId: operatorId, note: 'Please check the camera' } });
    expect(toUser.status, JSON.stringify(toUser.body)).toBe(200);
    expect(toUser.body).toMatchObject({ forwardedTo: 'Sam Operator' });
    await waitFor(() => bodies(nw.on(DESTINATIONS.alarmNotice)).find((b) => b.eventId === alarm.id && /Please check the camera/.test(b.name)), 'the notice');
    await waitFor(() => bodies(nw.on(DESTINATIONS.alarmAction)).find((b) => b.change === 'forwarded' && b.alarmId === alarm.id), 'the change');
    const toGroup = await s.call('POST', `${API.alarms}/${alarm.id}/forward`, { token: operator, body: { groupId: second, note: 'Over to the duty manager' } });
    expect(toGroup.status).toBe(200);
    expect((await s.call('GET', API.alarms, { token: admin })).body.find((a: any) => a.id === alarm.id)).toMatchObject({
      forwardedTo: 'Duty manager',
      forwardNote: 'To Duty manager: Over to the duty manager',
    });
    expect((await history(alarm.id)).filter((h) => h.action === 'forwarded').map((h) => h.note)).toEqual([
      'To Sam Operator: Please check the camera',
      'To Duty manager: Over to the duty manager',
    ]);
    expect(await s.count(`select 1 from audit_log where entity = 'alarm' and entity_id = $1 and action = 'forward'`, [String(alarm.id)])).toBe(2);
  });

  it('refuses a forward without the privilege, of another client’s alarm, to someone not of this client, or without a note', async () => {
    const alarm = await raise(await doorOf(northwind, 6));
    const harbourUser = Number((await s.db.query<{ id: number }>(`select id from users where username = 'harbour'`)).rows[0].id);
    const snap = await tablesSnapshot(s.db);
    const forward = (token: string, id: number, b: unknown) => s.call('POST', `${API.alarms}/${id}/forward`, { token, body: b });
    expect((await forward(auditor, alarm.id, { userId: operatorId, note: 'x' })).status).toBe(403);
    expect((await forward(harbour, alarm.id, { userId: harbourUser, note: 'x' })).status).toBe(404);
    const stranger = await forward(operator, alarm.id, { userId: harbourUser, note: 'x' });
    expect(stranger.status).toBe(400);
    expect(stranger.body.violations).toEqual([expect.objectContaining({ field: 'userId' })]);
    const both = await forward(operator, alarm.id, { userId: operatorId, groupId: first, note: 'x' });
    expect(both.status).toBe(400);
    const noNote = await forward(operator, alarm.id, { userId: operatorId, note: '  ' });
    expect(noNote.status).toBe(400);
    expect(noNote.body.violations).toEqual([expect.objectContaining({ field: 'note' })]);
    expect(await tablesSnapshot(s.db)).toBe(snap);
    // processed: too late to forward
    expect((await s.call('POST', `${API.alarms}/${alarm.id}/process`, { token: operator, body: { note: 'done' } })).status).toBe(200);
    expect((await forward(operator, alarm.id, { userId: operatorId, note: 'x' })).status).toBe(409);
  });
});

describe('the shift handover', () => {
  it('lists the alarm sources shelved during the shift', async () => {
    const alarm = await raise(await doorOf(northwind, 7));
    const shelved = (
      await s.call('POST', `${API.alarms}/shelve`, { token: operator, body: { pointId: alarm.eventPointId, minutes: 480, reason: 'Night works' } })
    ).body;
    const latest = (await s.call('GET', '/event/handover/latest', { token: admin })).body;
    expect(latest.shelvings.map((x: any) => x.id)).not.toContain(shelved.id); // shelved after that shift ended
    // as if shelved an hour before that shift ended
    await s.db.query(
      `update alarm_shelvings set shelved_at = $2::timestamptz - interval '1 hour', until = $2::timestamptz + interval '7 hours' where id = $1`,
      [shelved.id, latest.end],
    );
    const again = (await s.call('GET', '/event/handover/latest', { token: admin })).body;
    expect(again.shelvings.find((x: any) => x.id === shelved.id)).toMatchObject({ reason: 'Night works', by: 'operator', endedAt: null });
  });
});
