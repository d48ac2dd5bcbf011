// The scale-out relay against a real RabbitMQ (its STOMP plugin): two server processes' brokers, each with its
// own SockJS subscribers, share one stream through the external broker, still per tenant. Runs when
// STOMP_RELAY_TEST_URL names a broker (.ci/run installs and starts RabbitMQ and sets it); vitest.config.ts
// leaves this file out otherwise, except in CI, where it fails without one.
import { afterEach, describe, expect, it } from 'vitest';
import { DESTINATIONS } from '../../contract';
import { connected, startBroker, waitFor, type Harness, type TestClient } from './testkit';

const url = process.env.STOMP_RELAY_TEST_URL!;
// in CI (vitest.config.ts includes this file there whatever the environment) a missing broker fails, never skips
if (!url) throw new Error('STOMP_RELAY_TEST_URL is not set: this test needs RabbitMQ with its STOMP plugin (.ci/run starts one)');
const harnesses: Harness[] = [];
const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.client.deactivate({ force: true });
  for (const h of harnesses.splice(0)) await h.close();
});

async function node() {
  const h = await startBroker({ relayUrl: url });
  harnesses.push(h);
  await waitFor(() => h.realtime.relay.connected, 'relay connected to RabbitMQ', 15_000);
  return h;
}
async function subscriber(h: Harness, token: string, destination: string) {
  const c = await connected(h.url('event'), token);
  clients.push(c);
  let ok = false;
  const receipt = `r-${Math.random()}`;
  c.client.watchForReceipt(receipt, () => {
    ok = true;
  });
  c.subscribe(destination, { receipt });
  await waitFor(() => ok, `receipt for SUBSCRIBE ${destination}`);
  return c;
}
const bodies = (c: TestClient) => c.messages.map((m) => JSON.parse(m.body));

describe('STOMP relay through RabbitMQ', () => {
  it('delivers what one process publishes to the same tenant\u2019s subscribers of every process, and to no other tenant', async () => {
    const a = await node();
    const b = await node();
    expect(a.realtime.relay).toEqual({ enabled: true, connected: true });
    const onA = await subscriber(a, 'token-a', DESTINATIONS.greetings); // tenant 1 on process A
    const onB = await subscriber(b, 'token-a2', DESTINATIONS.greetings); // tenant 1 on process B
    const otherTenant = await subscriber(b, 'token-b', DESTINATIONS.greetings); // tenant 2 on process B

    b.realtime.publish(1, DESTINATIONS.greetings, { content: 'from B' });
    a.realtime.publish(1, DESTINATIONS.greetings, { content: 'from A' });
    await waitFor(() => onA.messages.length === 2 && onB.messages.length === 2, 'both processes\u2019 subscribers got both messages', 10_000);
    expect(
      bodies(onA)
        .map((m) => m.content)
        .sort(),
    ).toEqual(['from A', 'from B']);
    expect(
      bodies(onB)
        .map((m) => m.content)
        .sort(),
    ).toEqual(['from A', 'from B']);

    // a marker for tenant 2 published after: when it arrives, anything of tenant 1 would have too
    a.realtime.publish(2, DESTINATIONS.greetings, { content: 'marker' });
    await waitFor(() => otherTenant.messages.length > 0, 'tenant 2 marker', 10_000);
    expect(bodies(otherTenant)).toEqual([{ content: 'marker' }]);
    expect(onA.messages).toHaveLength(2);
  });

  it('a process alone still hears its own messages, through the broker', async () => {
    const a = await node();
    const sub = await subscriber(a, 'token-a', DESTINATIONS.greetings);
    a.realtime.publish(1, DESTINATIONS.greetings, { content: 'one' });
    await waitFor(() => sub.messages.length === 1, 'first message', 10_000);
    expect(bodies(sub)).toEqual([{ content: 'one' }]);
  });

  it('carries who a message is for across processes: a notice to users reaches only theirs, an event of a division only who may see it', async () => {
    const a = await node();
    const b = await node();
    const ada = await subscriber(b, 'token-a', DESTINATIONS.events); // tenant 1, whole client, on B
    const site = await subscriber(b, 'token-site', DESTINATIONS.events); // tenant 1, division 10 only, on B
    const alan = await subscriber(b, 'token-a2', DESTINATIONS.alarmNotice);
    const adaNotices = await subscriber(b, 'token-a', DESTINATIONS.alarmNotice);
    const event = (id: number) => ({
      id,
      eventCode: 5000,
      eventSourceId: 'door-1',
      eventPointId: 'door-1',
      message: 'x',
      alert: false,
      time: new Date(0).toISOString(),
      priority: 100,
    });
    a.realtime.publish(1, DESTINATIONS.events, event(1), { division: 11 });
    a.realtime.publish(1, DESTINATIONS.events, event(2), { division: 10 });
    a.realtime.publish(1, DESTINATIONS.events, event(3));
    a.realtime.publish(
      1,
      DESTINATIONS.alarmNotice,
      { notificationId: 1, name: 'n', eventId: 9, priority: 1, message: 'm', at: new Date(0).toISOString() },
      { users: [3] },
    );
    await waitFor(() => ada.messages.length === 3 && alan.messages.length === 1, 'every message arrived on B', 10_000);
    // a marker after them for the division operator: when it arrives, a wrongly delivered one would have too
    a.realtime.publish(1, DESTINATIONS.events, event(4), { division: 10 });
    await waitFor(() => bodies(site).some((e) => e.id === 4), 'marker', 10_000);
    expect(bodies(site).map((e) => e.id)).toEqual([2, 3, 4]);
    expect(bodies(alan).map((n) => n.eventId)).toEqual([9]);
    expect(adaNotices.messages).toHaveLength(0);
  });
});

describe('per-session alarm counts through RabbitMQ', () => {
  it('a count per division crosses processes and each session hears its own', async () => {
    const a = await node();
    const b = await node();
    const whole = await subscriber(b, 'token-a', DESTINATIONS.alarmCount);
    const site = await subscriber(b, 'token-site', DESTINATIONS.alarmCount);
    a.realtime.publish(1, DESTINATIONS.alarmCount, { count: 9 }, { counts: { byDivision: { 10: 3, 11: 4 }, none: 2 } });
    await waitFor(() => whole.messages.length === 1 && site.messages.length === 1, 'both counts on B', 10_000);
    expect(bodies(whole)).toEqual([{ count: 9 }]);
    expect(bodies(site)).toEqual([{ count: 5 }]);
  });

  it('a burst published in one turn crosses as batches, every event arriving once and in order (past the batch bound too)', async () => {
    const a = await node();
    const b = await node();
    const onB = await subscriber(b, 'token-a', DESTINATIONS.events);
    const event = (id: number) => ({
      id,
      eventCode: 5000,
      eventSourceId: 'door-1',
      eventPointId: 'door-1',
      message: `burst ${'x'.repeat(200)}`,
      alert: false,
      time: new Date(0).toISOString(),
      priority: 100,
    });
    for (let i = 1; i <= 600; i++) a.realtime.publish(1, DESTINATIONS.events, event(i)); // about 200 KB: more than one batch
    await waitFor(() => onB.messages.length >= 600, '600 events on B', 15_000);
    expect(bodies(onB).map((e) => e.id)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
  });

  it('text of any script crosses whole, whatever TCP chunks the frames arrive in', async () => {
    const a = await node();
    const b = await node();
    const onB = await subscriber(b, 'token-a', DESTINATIONS.events);
    // multi-byte characters in frames of about 64 KB: a character may be split between two reads of the socket
    const message = (i: number) => `Zürich 東京 🚪 ${i} ${'é'.repeat(300)}`;
    for (let i = 1; i <= 400; i++) a.realtime.publish(1, DESTINATIONS.events, { id: i, message: message(i) });
    await waitFor(() => onB.messages.length >= 400, '400 events on B', 15_000);
    expect(bodies(onB)).toEqual(Array.from({ length: 400 }, (_, i) => ({ id: i + 1, message: message(i + 1) })));
  });
});
