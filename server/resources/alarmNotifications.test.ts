// Alarm notifications (issue 12): an alarm raised with a priority up to a notification's limit is queued for its web
// hook as an `alarm.notification` delivery in the transaction that raises it; a less urgent one, a notification that
// is off, or an inactive web hook queues nothing; another tenant's notification is 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, DESTINATIONS, SOCKJS_PREFIX, alarmNotificationsResource, webHooksResource } from '../../contract';
import { listening, waitFor, type TestClient } from '../realtime/testkit';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, harbour: string;
let northwind: number;

beforeAll(async () => {
  s = await startTestServer({ testHooks: true, webhooks: false });
  [admin, harbour] = await Promise.all([s.loginTo('admin', 'NORTHWIND'), s.login('harbour')]);
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
}, 60_000);
const consoles: TestClient[] = [];
afterAll(async () => {
  for (const c of consoles) await c.client.deactivate({ force: true });
  await s?.close();
});

/** A console of `token` listening to /notice/alarm (receipt awaited). */
async function notices(token: string) {
  const l = await listening(`${s.base}${SOCKJS_PREFIX.event}`, token, DESTINATIONS.alarmNotice);
  consoles.push(l.client);
  return l.bodies;
}

const queued = (hookId: number) =>
  s.db.query<{ body: any }>(`select body from webhook_outbox where hook_id = $1 and event_type = 'alarm.notification' order by id`, [hookId]);

describe('alarm notifications', () => {
  it('queue the alarms up to their priority for their web hook, and nothing when off', async () => {
    const hook = await s.call('POST', webHooksResource.api, {
      token: admin,
      body: { name: 'Pager', url: 'https://pager.example.test/in', secret: 'a-long-enough-secret', active: true },
    });
    expect(hook.status).toBe(201);
    const made = await s.call('POST', alarmNotificationsResource.api, {
      token: admin,
      body: { name: 'Supervisor on call', maxPriority: 1, webHookId: hook.body.id, enabled: true },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ webHookName: 'Pager', maxPriority: 1, enabled: true });
    expect((await s.call('GET', `${alarmNotificationsResource.api}/${made.body.id}`, { token: harbour })).status).toBe(404);

    const door = Number((await s.db.query<{ id: number }>('select id from doors where client_id = $1 order by id limit 1', [northwind])).rows[0].id);
    const forced = await s.call('POST', API.testSimulate, { token: admin, body: { kind: 'door.forced', doorId: door } }); // priority 1
    const held = await s.call('POST', API.testSimulate, { token: admin, body: { kind: 'door.held', doorId: door } }); // priority 3
    let rows = (await queued(hook.body.id)).rows;
    expect(rows.map((r) => r.body.data.eventId)).toEqual([Number(forced.body.id)]);
    expect(rows[0].body).toMatchObject({ type: 'alarm.notification', notification: { name: 'Supervisor on call', maxPriority: 1 }, data: { priority: 1 } });
    expect(rows.some((r) => r.body.data.eventId === Number(held.body.id))).toBe(false);

    // off: nothing more is queued
    const row = (await s.call('GET', `${alarmNotificationsResource.api}/${made.body.id}`, { token: admin })).body;
    expect(
      (
        await s.call('PUT', `${alarmNotificationsResource.api}/${row.id}`, {
          token: admin,
          body: { name: row.name, maxPriority: 3, webHookId: row.webHookId, enabled: false, note: null, updatedAt: row.updatedAt },
        })
      ).status,
    ).toBe(200);
    await s.call('POST', API.testSimulate, { token: admin, body: { kind: 'door.forced', doorId: door } });
    rows = (await queued(hook.body.id)).rows;
    expect(rows).toHaveLength(1);
    // the web hook may not be deleted... it has no delete; a notification's reference to another tenant's hook is refused
    const theirs = await s.call('POST', alarmNotificationsResource.api, {
      token: harbour,
      body: { name: 'Theirs', maxPriority: 1, webHookId: hook.body.id, enabled: true },
    });
    expect(theirs.status).toBe(400);
    expect(theirs.body.violations[0].field).toBe('webHookId');
  });

  it("tell an operator group's consoles, each member only, of the alarms up to their priority; a web hook or a group is needed", async () => {
    const operatorId = Number((await s.db.query<{ id: number }>(`select id from users where username = 'operator'`)).rows[0].id);
    const group = await s.call('POST', API.operatorGroups, { token: admin, body: { name: 'Night desk', members: [operatorId], grants: [] } });
    expect(group.status).toBe(201);
    const none = await s.call('POST', alarmNotificationsResource.api, { token: admin, body: { name: 'Nobody', maxPriority: 1, enabled: true } });
    expect(none.status).toBe(400);
    expect(none.body.violations).toEqual([
      { field: 'webHookId', message: 'is required unless an operator group is told', code: 'resource.alarmNotifications.rule.webHookId', values: {} },
    ]);
    expect(await s.count(`select 1 from alarm_notifications where name = 'Nobody'`)).toBe(0);
    const made = await s.call('POST', alarmNotificationsResource.api, {
      token: admin,
      body: { name: 'Night desk P1-2', maxPriority: 2, operatorGroupId: group.body.id, enabled: true },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ operatorGroupName: 'Night desk', webHookId: null });

    // the administrator is not in the night desk: a desk of their own hears the same alarms, which is the signal that an
    // alarm was handled on their console too (a notice of the night desk for them would have been published first)
    const adminId = Number((await s.db.query<{ id: number }>(`select id from users where username = 'admin'`)).rows[0].id);
    const duty = await s.call('POST', API.operatorGroups, { token: admin, body: { name: 'Duty admin', members: [adminId], grants: [] } });
    expect(duty.status).toBe(201);
    const theirs = await s.call('POST', alarmNotificationsResource.api, {
      token: admin,
      body: { name: 'Duty admin P1', maxPriority: 1, operatorGroupId: duty.body.id, enabled: true },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).toBeGreaterThan(made.body.id); // told in this order, so a leak would come first

    const member = await notices(await s.login('operator'));
    const other = await notices(admin); // an administrator of the client, not in the night desk
    const door = Number((await s.db.query<{ id: number }>('select id from doors where client_id = $1 order by id limit 1', [northwind])).rows[0].id);
    const held = await s.call('POST', API.testSimulate, { token: admin, body: { kind: 'door.held', doorId: door } }); // priority 3
    const forced = await s.call('POST', API.testSimulate, { token: admin, body: { kind: 'door.forced', doorId: door } }); // priority 1
    const [notice] = await waitFor(() => {
      const m = member();
      return m.length ? m : null;
    }, 'a notice for the member');
    expect(notice).toEqual({
      notificationId: made.body.id,
      name: 'Night desk P1-2',
      eventId: Number(forced.body.id),
      priority: 1,
      message: forced.body.message,
      // the message's key and values, as the event has them: the console says it in the member's language (issue 48)
      messageCode: forced.body.messageCode,
      messageValues: forced.body.messageValues,
      at: forced.body.time,
      pointName: expect.any(String),
    });
    expect(notice.messageCode).toBe('event.atDoor');
    // the member heard the urgent one only: the less urgent one was raised (and told) first, so had it been told it would
    // be the first notice; the administrator heard the same alarm from their own desk only, none of the night desk's
    expect(member().map((m) => m.eventId)).toEqual([Number(forced.body.id)]);
    expect(member().some((m) => m.eventId === Number(held.body.id))).toBe(false);
    await waitFor(() => other().length > 0, "the administrator's own notice");
    expect(other().map((m) => [m.notificationId, m.eventId])).toEqual([[theirs.body.id, Number(forced.body.id)]]);

    // off: no more notices, at once (the change notice drops what the server read)
    const row = (await s.call('GET', `${alarmNotificationsResource.api}/${made.body.id}`, { token: admin })).body;
    expect(
      (
        await s.call('PUT', `${alarmNotificationsResource.api}/${row.id}`, {
          token: admin,
          body: {
            name: row.name,
            maxPriority: row.maxPriority,
            webHookId: null,
            operatorGroupId: row.operatorGroupId,
            enabled: false,
            note: null,
            updatedAt: row.updatedAt,
          },
        })
      ).status,
    ).toBe(200);
    // a relief desk of the same group, made after it, tells the member of the next alarm: the signal that it was handled
    // (the switched-off desk, older, would have been told first)
    const relief = await s.call('POST', alarmNotificationsResource.api, {
      token: admin,
      body: { name: 'Night desk relief', maxPriority: 1, operatorGroupId: group.body.id, enabled: true },
    });
    expect(relief.status).toBe(201);
    const again = await s.call('POST', API.testSimulate, { token: admin, body: { kind: 'door.forced', doorId: door } });
    await waitFor(() => member().length >= 2, 'the relief desk notice');
    expect(member().map((m) => [m.notificationId, m.eventId])).toEqual([
      [made.body.id, Number(forced.body.id)],
      [relief.body.id, Number(again.body.id)],
    ]);
  });
});
