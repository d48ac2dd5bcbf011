// STOMP 1.2 conformance of the broker, driven by @stomp/stompjs over sockjs-client against a plain HTTP server.
// Non-delivery is proven by order, not by waiting: a later marker message on the same connection arrives only
// after anything published before it would have.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DESTINATIONS } from '../../contract';
import { connected, rawSocket, startBroker, stompClient, waitFor, type Harness, type TestClient } from './testkit';

let h: Harness;
const clients: TestClient[] = [];
const track = (c: TestClient) => {
  clients.push(c);
  return c;
};

async function start(options: Parameters<typeof startBroker>[0] = {}) {
  h = await startBroker(options);
}
afterEach(async () => {
  for (const c of clients.splice(0)) await c.client.deactivate({ force: true });
  await h?.close();
});

/** Subscribe and wait until the broker has it (receipt). */
async function subscribed(c: TestClient, destination: string) {
  let done = false;
  const receipt = `sub-${destination}-${Math.random()}`;
  c.client.watchForReceipt(receipt, () => {
    done = true;
  });
  const sub = c.subscribe(destination, { receipt });
  await waitFor(() => done, `receipt for SUBSCRIBE ${destination}`);
  return sub;
}

describe('CONNECT', () => {
  beforeEach(() => start());

  it('connects with a valid JWT as STOMP 1.2', async () => {
    const c = track(await connected(h.url('event'), 'token-a'));
    expect(c.connected!.headers.version).toBe('1.2');
    expect(c.connected!.headers['user-name']).toBe('ada');
    expect(h.realtime.stats.sessions).toBe(1);
  });

  it('accepts the JWT as passcode too', async () => {
    const c = track(stompClient(h.url('central'), { login: 'x', passcode: 'token-b' }));
    await waitFor(() => c.connected || c.errors[0], 'CONNECTED');
    expect(c.connected).not.toBeNull();
  });

  it('rejects a bad token with an ERROR frame and closes', async () => {
    const c = track(stompClient(h.url('event'), { Authorization: 'Bearer forged' }));
    await waitFor(() => c.errors[0] && c.closed, 'ERROR then close');
    expect(c.errors[0].headers.message).toBe('Unauthorized');
    expect(c.connected).toBeNull();
  });

  it('rejects a CONNECT without any token', async () => {
    const c = track(stompClient(h.url('event'), {}));
    await waitFor(() => c.errors[0] && c.closed, 'ERROR then close');
    expect(c.errors[0].headers.message).toBe('Unauthorized');
  });

  it('refuses any frame before CONNECT', async () => {
    const r = rawSocket(h.url('event'));
    await waitFor(() => r.state.open, 'open');
    r.sock.send('SUBSCRIBE\nid:1\ndestination:/events\n\n\0');
    await waitFor(() => r.state.closed, 'close');
    expect(r.text()).toMatch(/^ERROR\n/);
    expect(r.text()).toContain('message:Not connected');
  });
});

describe('SUBSCRIBE, MESSAGE, UNSUBSCRIBE', () => {
  beforeEach(() => start());

  it('delivers a publish as MESSAGE with subscription, message-id, destination and content-type', async () => {
    const c = track(await connected(h.url('event'), 'token-a'));
    const sub = await subscribed(c, DESTINATIONS.alarmCount);
    h.realtime.publish(1, DESTINATIONS.alarmCount, { count: 3 });
    const m = await waitFor(() => c.messages[0], 'MESSAGE');
    expect(m.headers.subscription).toBe(sub.id);
    expect(m.headers['message-id']).toMatch(/^\d+$/);
    expect(m.headers.destination).toBe('/alarmcount');
    expect(m.headers['content-type']).toBe('application/json');
    expect(JSON.parse(m.body)).toEqual({ count: 3 });
  });

  it('gives every message its own id and serves /events/{suffix} destinations', async () => {
    const c = track(await connected(h.url('event'), 'token-a'));
    await subscribed(c, '/events/door-7');
    h.realtime.publish(1, '/events/door-7', { eventCode: 2001, eventSourceId: 7 });
    h.realtime.publish(1, '/events/door-7', { eventCode: 2000, eventSourceId: 7 });
    await waitFor(() => c.messages.length === 2, 'two MESSAGEs');
    expect(c.messages[0].headers['message-id']).not.toBe(c.messages[1].headers['message-id']);
    expect(c.messages.map((m) => JSON.parse(m.body).eventCode)).toEqual([2001, 2000]);
  });

  it('stops delivery after UNSUBSCRIBE', async () => {
    const c = track(await connected(h.url('event'), 'token-a'));
    const counts = await subscribed(c, DESTINATIONS.alarmCount);
    await subscribed(c, DESTINATIONS.doorHeartbeat);
    let unsubscribed = false;
    c.client.watchForReceipt('unsub-1', () => {
      unsubscribed = true;
    });
    counts.unsubscribe({ receipt: 'unsub-1' });
    await waitFor(() => unsubscribed, 'UNSUBSCRIBE receipt');
    h.realtime.publish(1, DESTINATIONS.alarmCount, { count: 9 });
    h.realtime.publish(1, DESTINATIONS.doorHeartbeat, { id: 1, name: 'Front' });
    await waitFor(() => c.messages.some((m) => m.headers.destination === '/hbdoor'), 'the marker on /hbdoor');
    expect(c.messages.map((m) => m.headers.destination)).toEqual(['/hbdoor']);
  });

  it('refuses a destination of another service and a duplicate subscription id', async () => {
    const c = track(await connected(h.url('event'), 'token-a'));
    c.subscribe(DESTINATIONS.controllerHeartbeat);
    await waitFor(() => c.errors[0] && c.closed, 'ERROR then close');
    expect(c.errors[0].headers.message).toBe('Unknown destination');

    const r = rawSocket(h.url('event'));
    await waitFor(() => r.state.open, 'open');
    r.sock.send('CONNECT\naccept-version:1.2\npasscode:token-a\n\n\0');
    r.sock.send('SUBSCRIBE\nid:s\ndestination:/events\n\n\0SUBSCRIBE\nid:s\ndestination:/hbdoor\n\n\0');
    await waitFor(() => r.state.closed, 'close');
    expect(r.text()).toContain('message:Duplicate subscription id');
  });
});

describe('tenants', () => {
  beforeEach(() => start());

  it("never delivers tenant A's publish to tenant B's subscriber", async () => {
    const a = track(await connected(h.url('event'), 'token-a'));
    const a2 = track(await connected(h.url('event'), 'token-a2'));
    const b = track(await connected(h.url('event'), 'token-b'));
    for (const c of [a, a2, b]) await subscribed(c, DESTINATIONS.events);
    h.realtime.publish(1, DESTINATIONS.events, { id: 1, secret: 'tenant A' });
    h.realtime.publish(2, DESTINATIONS.events, { id: 2, marker: 'tenant B' });
    await waitFor(() => b.messages.length >= 1 && a.messages.length >= 1 && a2.messages.length >= 1, 'deliveries');
    expect(b.messages.map((m) => JSON.parse(m.body).id)).toEqual([2]);
    expect(a.messages.map((m) => JSON.parse(m.body).id)).toEqual([1]);
    expect(a2.messages.map((m) => JSON.parse(m.body).id)).toEqual([1]);
  });

  it("echoes a client SEND to /topic/greetings to the sender's tenant only", async () => {
    const a = track(await connected(h.url('event'), 'token-a'));
    const b = track(await connected(h.url('event'), 'token-b'));
    await subscribed(a, DESTINATIONS.greetings);
    await subscribed(b, DESTINATIONS.greetings);
    a.client.publish({ destination: DESTINATIONS.greetings, body: JSON.stringify({ content: 'hello' }) });
    await waitFor(() => a.messages[0], 'echo');
    h.realtime.publish(2, DESTINATIONS.greetings, { content: 'marker' });
    await waitFor(() => b.messages[0], 'marker');
    expect(JSON.parse(a.messages[0].body)).toEqual({ content: 'hello' });
    expect(b.messages.map((m) => JSON.parse(m.body).content)).toEqual(['marker']);
  });
});

describe('SEND rules, receipts and DISCONNECT', () => {
  beforeEach(() => start());

  it('answers a RECEIPT for a frame with a receipt header', async () => {
    const c = track(await connected(h.url('event'), 'token-a'));
    let got = false;
    c.client.watchForReceipt('r-42', () => {
      got = true;
    });
    c.client.publish({ destination: DESTINATIONS.greetings, body: '{}', headers: { receipt: 'r-42' } });
    await waitFor(() => got, 'RECEIPT r-42');
    expect(c.errors).toEqual([]);
  });

  it('refuses a SEND to a server-only destination', async () => {
    const c = track(await connected(h.url('event'), 'token-a'));
    c.client.publish({ destination: DESTINATIONS.alarmAction, body: JSON.stringify({ eventPointId: 1, process: true }) });
    await waitFor(() => c.errors[0] && c.closed, 'ERROR then close');
    expect(c.errors[0].headers.message).toBe('Forbidden destination');
  });

  it('answers DISCONNECT with its receipt, then closes', async () => {
    const r = rawSocket(h.url('event'));
    await waitFor(() => r.state.open, 'open');
    r.sock.send('CONNECT\naccept-version:1.2\npasscode:token-a\n\n\0DISCONNECT\nreceipt:77\n\n\0');
    await waitFor(() => r.state.closed, 'close');
    expect(r.text()).toMatch(/^CONNECTED\n/);
    expect(r.text()).toContain('RECEIPT\nreceipt-id:77\n\n\0');
  });

  it('runs a transaction: SENDs take effect on COMMIT, not on ABORT', async () => {
    const c = track(await connected(h.url('event'), 'token-a'));
    await subscribed(c, DESTINATIONS.greetings);
    const aborted = c.client.begin('t1');
    c.client.publish({ destination: DESTINATIONS.greetings, body: '{"content":"aborted"}', headers: { transaction: aborted.id } });
    aborted.abort();
    const tx = c.client.begin('t2');
    c.client.publish({ destination: DESTINATIONS.greetings, body: '{"content":"committed"}', headers: { transaction: tx.id } });
    tx.commit();
    c.client.publish({ destination: DESTINATIONS.greetings, body: '{"content":"after"}' });
    await waitFor(() => c.messages.length >= 2, 'two echoes');
    expect(c.messages.map((m) => JSON.parse(m.body).content)).toEqual(['committed', 'after']);
  });
});

describe('errors', () => {
  it('answers a malformed frame with ERROR and closes', async () => {
    await start();
    const c = track(await connected(h.url('event'), 'token-a'));
    c.raw('SEND\nthis header has no colon\n\n\0');
    await waitFor(() => c.errors[0] && c.closed, 'ERROR then close');
    expect(c.errors[0].headers.message).toBe('Malformed frame');
  });

  it('answers an unknown command with ERROR and closes', async () => {
    await start();
    const c = track(await connected(h.url('event'), 'token-a'));
    c.raw('SHOUT\n\n\0');
    await waitFor(() => c.errors[0] && c.closed, 'ERROR then close');
    expect(c.errors[0].headers.message).toBe('Unknown command');
  });

  it('answers an oversize body with ERROR and closes', async () => {
    await start({ maxBodyBytes: 1024 });
    const c = track(await connected(h.url('event'), 'token-a'));
    c.client.publish({ destination: DESTINATIONS.greetings, body: JSON.stringify({ content: 'x'.repeat(2000) }) });
    await waitFor(() => c.errors[0] && c.closed, 'ERROR then close');
    expect(c.errors[0].headers.message).toBe('Body too large');
  });

  it('answers an oversize frame (huge headers) with ERROR', async () => {
    await start({ maxFrameBytes: 2048 });
    const c = track(await connected(h.url('event'), 'token-a'));
    c.client.publish({ destination: DESTINATIONS.greetings, body: '{}', headers: { padding: 'y'.repeat(4000) } });
    await waitFor(() => c.errors[0] && c.closed, 'ERROR then close');
    expect(c.errors[0].headers.message).toBe('Frame too large');
  });

  it('refuses a body that does not match the destination schema', async () => {
    await start();
    const c = track(await connected(h.url('event'), 'token-a'));
    c.client.publish({ destination: DESTINATIONS.greetings, body: '{"content":42}' });
    await waitFor(() => c.errors[0] && c.closed, 'ERROR then close');
    expect(c.errors[0].headers.message).toBe('Invalid body');
    // issue 48: its key beside the English, and the violations naming the field, as a REST refusal has them
    expect(c.errors[0].headers.code).toBe('stomp.invalidBody');
    expect(c.errors[0].headers['content-type']).toBe('application/json');
    const body = JSON.parse(c.errors[0].body) as { code: string; violations: { field: string; code?: string }[] };
    expect(body.code).toBe('stomp.invalidBody');
    expect(body.violations.map((v) => v.field)).toEqual(['content']);
    expect(body.violations[0].code).toBeTruthy();
  });

  it('says each refusal by its key, with its values as JSON, and a body that is not JSON or a missing header as a violation', async () => {
    await start();
    const notJson = track(await connected(h.url('event'), 'token-a'));
    notJson.client.publish({ destination: DESTINATIONS.greetings, body: '{"content":' });
    await waitFor(() => notJson.errors[0] && notJson.closed, 'ERROR then close');
    expect(JSON.parse(notJson.errors[0].body).violations).toMatchObject([{ field: '(body)', code: 'json.isInvalid' }]);

    const headerless = track(await connected(h.url('event'), 'token-a'));
    headerless.raw('SUBSCRIBE\nid:1\n\n\0');
    await waitFor(() => headerless.errors[0] && headerless.closed, 'ERROR then close');
    expect(headerless.errors[0].headers).toMatchObject({ message: 'Malformed frame', code: 'stomp.malformedFrame' });
    expect(JSON.parse(headerless.errors[0].body).violations).toMatchObject([
      { field: 'destination', code: 'stomp.headerRequired', values: { header: 'destination' } },
    ]);

    const frameTooBig = track(await connected(h.url('event'), 'token-a'));
    frameTooBig.raw('SHOUT\n\n\0');
    await waitFor(() => frameTooBig.errors[0] && frameTooBig.closed, 'ERROR then close');
    expect(frameTooBig.errors[0].headers.code).toBe('stomp.unknownCommand');

    const sender = track(await connected(h.url('event'), 'token-a'));
    sender.client.publish({ destination: DESTINATIONS.alarmAction, body: '{}' });
    await waitFor(() => sender.errors[0] && sender.closed, 'ERROR then close');
    expect(sender.errors[0].headers).toMatchObject({ message: 'Forbidden destination', code: 'stomp.sendForbidden' });
    expect(JSON.parse(sender.errors[0].headers.values)).toEqual({ destination: DESTINATIONS.alarmAction });
  });
});

describe('heart-beats', () => {
  it('negotiates heart-beats both ways and keeps a beating client', async () => {
    await start({ heartbeatMs: 100 });
    const c = track(await connected(h.url('event'), 'token-a', { heartbeatIncoming: 100, heartbeatOutgoing: 100 }));
    expect(c.connected!.headers['heart-beat']).toBe('100,100');
    // server → client beats, and client → server beats counted by the server
    await waitFor(() => c.heartbeatsReceived >= 3 && h.realtime.stats.heartbeatsIn >= 3, 'beats both ways');
    // 3 beats at 100 ms each is past the 2 × 100 ms a silent client is allowed
    expect(c.closed).toBe(false);
    expect(h.realtime.stats.dropped).toBe(0);
  });

  it('drops a client that promised heart-beats and went silent', async () => {
    await start({ heartbeatMs: 100 });
    const r = rawSocket(h.url('event'));
    await waitFor(() => r.state.open, 'open');
    r.sock.send('CONNECT\naccept-version:1.2\npasscode:token-a\nheart-beat:100,0\n\n\0');
    await waitFor(() => r.state.closed, 'drop of the silent client');
    expect(r.text()).toContain('heart-beat:100,100');
    expect(h.realtime.stats.dropped).toBe(1);
  });

  it('does not expect beats from a client that offered none', async () => {
    await start({ heartbeatMs: 100 });
    const quiet = track(await connected(h.url('event'), 'token-a'));
    const beating = track(await connected(h.url('event'), 'token-b', { heartbeatIncoming: 100, heartbeatOutgoing: 0 }));
    await waitFor(() => beating.heartbeatsReceived >= 4, 'four server beats');
    expect(quiet.closed).toBe(false);
    expect(quiet.heartbeatsReceived).toBe(0);
    expect(h.realtime.stats.dropped).toBe(0);
  });
});

describe('acknowledgement (STOMP 1.2)', () => {
  beforeEach(() => start());

  it('puts an ack header on MESSAGEs of client and client-individual subscriptions, none on auto ones', async () => {
    const c = track(await connected(h.url('event'), 'token-a'));
    for (const [id, ack] of [
      ['s-client', 'client'],
      ['s-individual', 'client-individual'],
      ['s-auto', 'auto'],
    ]) {
      let done = false;
      c.client.watchForReceipt(`r-${id}`, () => {
        done = true;
      });
      c.client.subscribe(DESTINATIONS.alarmCount, (m) => c.messages.push(m), { id, ack, receipt: `r-${id}` });
      await waitFor(() => done, `SUBSCRIBE ${id}`);
    }
    h.realtime.publish(1, DESTINATIONS.alarmCount, { count: 1 });
    await waitFor(() => c.messages.length === 3, 'three MESSAGEs');
    const bySub = Object.fromEntries(c.messages.map((m) => [m.headers.subscription, m.headers]));
    expect(bySub['s-client'].ack).toBe(bySub['s-client']['message-id']);
    expect(bySub['s-individual'].ack).toBeTruthy();
    expect(bySub['s-auto'].ack).toBeUndefined();
    // acknowledging the messages that asked for it is fine, each once
    let acked = false;
    c.client.watchForReceipt('acks', () => {
      acked = true;
    });
    c.client.ack(bySub['s-client']['message-id'], 's-client');
    c.client.nack(bySub['s-individual']['message-id'], 's-individual', { receipt: 'acks' });
    await waitFor(() => acked, 'RECEIPT after ACK and NACK');
    expect(c.errors).toEqual([]);
  });

  it('answers an ACK or NACK of an id it never sent for acknowledgement with ERROR', async () => {
    const c = track(await connected(h.url('event'), 'token-a'));
    c.raw('ACK\nid:12345\n\n\0');
    await waitFor(() => c.errors[0] && c.closed, 'ERROR then close');
    expect(c.errors[0].headers.message).toBe('Unknown ACK id');

    const n = track(await connected(h.url('event'), 'token-a'));
    const sub = await subscribed(n, DESTINATIONS.alarmCount); // ack:auto, so its message ids need no ACK
    h.realtime.publish(1, DESTINATIONS.alarmCount, { count: 2 });
    const m = await waitFor(() => n.messages[0], 'MESSAGE');
    n.client.nack(m.headers['message-id'], sub.id);
    await waitFor(() => n.errors[0] && n.closed, 'ERROR then close');
    expect(n.errors[0].headers.message).toBe('Unknown NACK id');
  });

  it('refuses an ack mode STOMP does not define', async () => {
    const c = track(await connected(h.url('event'), 'token-a'));
    c.subscribe(DESTINATIONS.alarmCount, { ack: 'sometimes' });
    await waitFor(() => c.errors[0] && c.closed, 'ERROR then close');
    expect(c.errors[0].headers.message).toBe('Malformed frame');
  });
});

describe('connection without CONNECT', () => {
  it('is closed with an ERROR once the connect timeout passes', async () => {
    await start({ connectTimeoutMs: 200 });
    const r = rawSocket(h.url('event'));
    await waitFor(() => r.state.closed, 'close of the silent connection');
    expect(r.text()).toContain('message:Connect timeout');
    expect(h.realtime.stats.connections).toBe(0);
  });

  it('keeps a connection that sent CONNECT in time', async () => {
    await start({ connectTimeoutMs: 200 });
    const c = track(await connected(h.url('event'), 'token-a'));
    // a later silent connection is closed by its own timeout: the first one's would have fired before it
    const marker = rawSocket(h.url('event'));
    await waitFor(() => marker.state.closed, 'the silent marker connection closed');
    expect(marker.text()).toContain('message:Connect timeout');
    expect(c.closed).toBe(false);
    expect(c.errors).toEqual([]);
  });
});

describe('addressed delivery (issues 10 and 12)', () => {
  beforeEach(() => start());

  it('an event of one division reaches only the sessions whose grant covers it; a notice to users only their sessions', async () => {
    const whole = track(await connected(h.url('event'), 'token-a'));
    const site = track(await connected(h.url('event'), 'token-site'));
    const other = track(await connected(h.url('event'), 'token-a2'));
    for (const c of [whole, site]) await subscribed(c, DESTINATIONS.events);
    for (const c of [whole, other]) await subscribed(c, DESTINATIONS.alarmNotice);
    h.realtime.publish(1, DESTINATIONS.events, { id: 1 }, { division: 11 });
    h.realtime.publish(1, DESTINATIONS.events, { id: 2 }, { division: 10 });
    h.realtime.publish(1, DESTINATIONS.events, { id: 3 });
    h.realtime.publish(1, DESTINATIONS.alarmNotice, { eventId: 9 }, { users: [3] });
    h.realtime.publish(1, DESTINATIONS.events, { id: 4 }, { division: 10 }); // the marker
    await waitFor(() => site.messages.some((m) => JSON.parse(m.body).id === 4), 'marker');
    await waitFor(() => whole.messages.filter((m) => m.headers.destination === DESTINATIONS.events).length === 4, 'the whole-client session hears every event');
    expect(site.messages.map((m) => JSON.parse(m.body).id)).toEqual([2, 3, 4]);
    await waitFor(() => other.messages.length === 1, 'the addressed notice');
    expect(whole.messages.some((m) => m.headers.destination === DESTINATIONS.alarmNotice)).toBe(false);
  });
});

describe('per-session alarm counts (issue 10)', () => {
  beforeEach(() => start());

  it('a session limited to some divisions hears the count of theirs and of none; a whole-client session the total', async () => {
    const whole = track(await connected(h.url('event'), 'token-a'));
    const site = track(await connected(h.url('event'), 'token-site'));
    for (const c of [whole, site]) await subscribed(c, DESTINATIONS.alarmCount);
    h.realtime.publish(1, DESTINATIONS.alarmCount, { count: 9 }, { counts: { byDivision: { 10: 3, 11: 4 }, none: 2 } });
    await waitFor(() => whole.messages.length === 1 && site.messages.length === 1, 'both counts');
    expect(JSON.parse(whole.messages[0].body)).toEqual({ count: 9 });
    expect(JSON.parse(site.messages[0].body)).toEqual({ count: 5 });
  });
});
