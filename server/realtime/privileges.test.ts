// The broker's privilege filter (issue 4), driven by @stomp/stompjs over sockjs-client: a SUBSCRIBE to an alarm or
// event destination needs one of the privileges of the screen that consumes it. A refused one gets an ERROR naming
// the destination and hears nothing; an allowed one on the same tenant hears every publish.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DESTINATIONS,
  DESTINATION_PRIVILEGES,
  SERVICE_DESTINATIONS,
  mayReceive,
  receivableDestinations,
  refusedDestination,
  serviceOfDestination,
} from '../../contract';
import { connected, startBroker, waitFor, type Harness, type TestClient } from './testkit';

let h: Harness;
const clients: TestClient[] = [];
const track = (c: TestClient) => {
  clients.push(c);
  return c;
};

beforeEach(async () => {
  h = await startBroker();
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.client.deactivate({ force: true });
  await h?.close();
});

async function subscribed(c: TestClient, destination: string) {
  let done = false;
  const receipt = `sub-${destination}-${Math.random()}`;
  c.client.watchForReceipt(receipt, () => {
    done = true;
  });
  c.subscribe(destination, { receipt });
  await waitFor(() => done, `receipt for SUBSCRIBE ${destination}`);
}

describe('the destination → privilege map', () => {
  it('names a privilege for every alarm and event destination; only the echo channel is open', () => {
    const open = Object.entries(DESTINATION_PRIVILEGES)
      .filter(([, codes]) => codes === null)
      .map(([d]) => d);
    expect(open).toEqual([DESTINATIONS.greetings]);
    expect(mayReceive(new Set(), '/events/door-7')).toBe(false);
    expect(mayReceive(new Set(['0.2.2.0']), '/events/door-7')).toBe(true);
    expect(mayReceive(new Set(['0.2.1.0']), DESTINATIONS.alarmCount)).toBe(true);
    expect(mayReceive(new Set(['0.2.2.0']), DESTINATIONS.alarmCount)).toBe(false);
    expect(mayReceive(new Set(['0.2.1.0']), '/not-a-destination')).toBe(false);
    // the threat level in force is told as the threat levels' change: holders of door control hear it (doors screen)
    expect(mayReceive(new Set(['0.4.5.4']), '/changes/threatLevels')).toBe(true);
    expect(mayReceive(new Set(['0.4.5.4']), '/changes/overrides')).toBe(false);
    expect(mayReceive(new Set(['0.4.5.0']), '/changes/threatLevels')).toBe(false);
  });

  it('leaves a receptionist visitor clocking only, and an HR manager nothing but the echo channel', () => {
    const reception = new Set(['0.1', '1.0.0', '1.0.1', '0.3.1.0']);
    expect(receivableDestinations('event', reception)).toEqual([DESTINATIONS.greetings]);
    expect(receivableDestinations('central', reception)).toEqual([]);
    expect(receivableDestinations('visitor', reception)).toEqual([DESTINATIONS.clocking]);
    const hr = new Set(['0.1', '3.0.0', '0.3.1.0', '0.6.3.0']);
    expect(receivableDestinations('event', hr)).toEqual([DESTINATIONS.greetings]);
    expect(receivableDestinations('visitor', hr)).toEqual([]);
    // everything for someone holding every code
    const all = new Set(Object.values(DESTINATION_PRIVILEGES).flatMap((c) => c ?? []));
    for (const s of ['event', 'central', 'visitor'] as const) expect(receivableDestinations(s, all)).toEqual([...SERVICE_DESTINATIONS[s]]);
  });
});

describe('SUBSCRIBE needs the privilege of the destination', () => {
  const alarmDestinations = [
    DESTINATIONS.alarmAction,
    DESTINATIONS.alarmCount,
    DESTINATIONS.acknowledge,
    DESTINATIONS.events,
    '/events/door-7',
    DESTINATIONS.hardware,
    DESTINATIONS.doorHeartbeat,
  ];

  for (const destination of alarmDestinations) {
    it(`refuses ${destination} to a receptionist with an ERROR naming it, and closes`, async () => {
      const c = track(await connected(h.url('event'), 'token-desk'));
      c.subscribe(destination);
      await waitFor(() => c.errors[0] && c.closed, 'ERROR then close');
      expect(c.errors[0].headers.message).toBe(`Forbidden destination ${destination}`);
      expect(c.errors[0].body).toContain(destination);
      // issue 48: the console knows the destination by the refusal's key and values (src/transport/stomp.ts), not its English
      expect(c.errors[0].headers.code).toBe('stomp.forbiddenDestination');
      expect(refusedDestination(c.errors[0].headers.values)).toBe(destination);
      expect(h.realtime.stats.subscriptions).toBe(0);
    });
  }

  it('refuses /hbcontroller on the central service and /dynamic-qr on the visitor service to a receptionist', async () => {
    const central = track(await connected(h.url('central'), 'token-desk'));
    central.subscribe(DESTINATIONS.controllerHeartbeat);
    const visitor = track(await connected(h.url('visitor'), 'token-desk'));
    visitor.subscribe(DESTINATIONS.dynamicQr);
    await waitFor(() => central.errors[0] && visitor.errors[0], 'two ERRORs');
    expect(central.errors[0].headers.message).toBe('Forbidden destination /hbcontroller');
    expect(visitor.errors[0].headers.message).toBe('Forbidden destination /dynamic-qr');
  });

  it('delivers nothing to a refused subscriber, while an entitled one of the same tenant hears the publish', async () => {
    const desk = track(await connected(h.url('event'), 'token-desk'));
    const watcher = track(await connected(h.url('event'), 'token-a'));
    await subscribed(watcher, DESTINATIONS.alarmCount);
    desk.subscribe(DESTINATIONS.alarmCount);
    await waitFor(() => desk.closed, 'the refused console is closed');
    h.realtime.publish(1, DESTINATIONS.alarmCount, { count: 4 });
    await waitFor(() => watcher.messages[0], 'the entitled console hears it');
    expect(desk.messages).toHaveLength(0);
    expect(h.realtime.stats.delivered).toBe(1);
  });

  it('lets a receptionist hold /clocking and the echo channel, and delivers them', async () => {
    const visitor = track(await connected(h.url('visitor'), 'token-desk'));
    await subscribed(visitor, DESTINATIONS.clocking);
    const events = track(await connected(h.url('event'), 'token-desk'));
    await subscribed(events, DESTINATIONS.greetings);
    h.realtime.publish(1, DESTINATIONS.clocking, { identityId: 9, direction: 'in' });
    await waitFor(() => visitor.messages[0], '/clocking delivered');
    expect(JSON.parse(visitor.messages[0].body)).toEqual({ identityId: 9, direction: 'in' });
    expect(visitor.errors).toHaveLength(0);
    expect(events.errors).toHaveLength(0);
  });

  it('gives an alarms-only user the alarm destinations and /events, and refuses the hardware ones', async () => {
    const c = track(await connected(h.url('event'), 'token-alarms'));
    for (const d of [DESTINATIONS.alarmAction, DESTINATIONS.alarmCount, DESTINATIONS.acknowledge, DESTINATIONS.events]) await subscribed(c, d);
    h.realtime.publish(1, DESTINATIONS.alarmAction, { eventPointId: 3, process: true });
    await waitFor(() => c.messages[0], '/alarmaction delivered');
    c.subscribe(DESTINATIONS.hardware);
    await waitFor(() => c.errors[0], 'ERROR');
    expect(c.errors[0].headers.message).toBe('Forbidden destination /noty/hardware');
    expect(serviceOfDestination(DESTINATIONS.hardware)).toBe('event');
  });
});

describe('serviceOfDestination', () => {
  it('answers the same on every ask, past the bound of what it remembers', () => {
    // each kind of destination with its service: concrete events, a resource's changes, every base one, unknown ones
    const expected = new Map<string, string | null>();
    for (let i = 0; i < 1500; i++) {
      expected.set(`/events/door-${i}`, 'event');
      expected.set(`/changes/res${i}`, 'central');
      expected.set(`/nowhere/${i}`, null);
      expected.set(`/changes/${i}res`, null); // a resource name begins with a letter
    }
    for (const [service, list] of Object.entries(SERVICE_DESTINATIONS)) for (const d of list) if (d !== DESTINATIONS.changes) expected.set(d, service);
    const keys = [...expected.keys()];
    for (const order of [keys, [...keys].reverse(), keys]) for (const d of order) expect(serviceOfDestination(d), d).toBe(expected.get(d));
  });
});

describe("the real server builds the principal with the grants of the token's client", () => {
  // the server starts in the hook (60 s), not in the test's own 30 s: at load 15 its start alone took most of them
  let s: Awaited<ReturnType<typeof import('../testkit').startTestServer>>;
  beforeAll(async () => {
    const { startTestServer } = await import('../testkit');
    s = await startTestServer();
  });
  afterAll(async () => s?.close());
  it('refuses a receptionist /alarmcount and gives it to an operator of the same client', async () => {
    const { SOCKJS_PREFIX } = await import('../../contract');
    try {
      const [reception, operator] = await Promise.all([s.login('reception'), s.login('operator')]);
      const desk = track(await connected(`${s.base}${SOCKJS_PREFIX.event}`, reception));
      desk.subscribe(DESTINATIONS.alarmCount);
      await waitFor(() => desk.errors[0], 'ERROR for the receptionist');
      expect(desk.errors[0].headers.message).toBe('Forbidden destination /alarmcount');
      const op = track(await connected(`${s.base}${SOCKJS_PREFIX.event}`, operator));
      await subscribed(op, DESTINATIONS.alarmCount);
      expect(op.errors).toHaveLength(0);
    } finally {
      for (const c of clients.splice(0)) await c.client.deactivate({ force: true });
    }
  });
});
