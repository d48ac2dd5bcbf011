// Issue 51: the real-time connection (machines/socket.ts) with small hand-made cases, for the mutation run
// (socket.model.test.ts builds its graph per test: 45 minutes a run). Each rule of §4 and §7 is written down here apart
// from the machine, with the values worked out by hand: which bodies are kept and which dropped (and why), which
// machine hears which fact (one as itself, several as one batch), when it connects, waits 5 s and reconnects, the
// resync after a (re)connect or a wake, the visitor count; the selectors; and each invariant of
// machines/socket.invariants.ts rejecting a state that breaks it.
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromCallback, setup, type AnyActorRef } from 'xstate';
import { DESTINATIONS, SOCKET_RECONNECT_MS, type RealtimeService } from '../contract';
import { SOCKET_SYSTEM_IDS, checkMessage, routeMessage, socketMachine, type ConnectionInput, type SocketEvent, type SocketSnapshot } from '../machines/socket';
import { selectDroppedMessages, selectIsOnline, selectSocketStatus, selectUserCount } from '../machines/socket.selectors';
import { invariants } from '../machines/socket.invariants';
import { createControls, flush } from './harness';

const JWT = 'header.payload.signature';
const alarm = {
  id: 1,
  eventCode: 5001,
  eventPointId: 10,
  eventSourceId: 10,
  message: 'Door forced open',
  alert: true,
  time: '2024-05-01T10:00:00Z',
  priority: 1,
};

describe('socket rules: which bodies are kept', () => {
  it('refuses a destination of another service, a text that is not JSON, and a body its schema refuses', () => {
    expect(checkMessage('event', DESTINATIONS.controllerHeartbeat, [])).toEqual({
      ok: false,
      violations: [{ field: '(destination)', message: 'is not served by the event service' }],
    });
    expect(checkMessage('visitor', DESTINATIONS.events, alarm)).toEqual({
      ok: false,
      violations: [{ field: '(destination)', message: 'is not served by the visitor service' }],
    });
    expect(checkMessage('event', DESTINATIONS.alarmCount, '{count')).toEqual({ ok: false, violations: [{ field: '(body)', message: 'is not JSON' }] });
    const bad = checkMessage('event', DESTINATIONS.alarmCount, { count: 'two' });
    expect(bad.ok).toBe(false);
    expect(checkMessage('event', DESTINATIONS.alarmCount, '{"count":2}')).toEqual({ ok: true, value: { count: 2 } });
    expect(checkMessage('event', DESTINATIONS.alarmCount, { count: 3 })).toEqual({ ok: true, value: { count: 3 } });
  });
  it('routes each destination to the machine that acts on it, and nothing else anywhere', () => {
    expect(routeMessage(DESTINATIONS.events, alarm)).toEqual([
      { to: 'alarms', event: { type: 'event.received', event: alarm } },
      { to: 'hardwareStatus', event: { type: 'event.received', event: alarm } },
    ]);
    const reader = { eventCode: 4002, eventSourceId: 4 };
    expect(routeMessage(`${DESTINATIONS.events}/reader-4`, reader)).toEqual([{ to: 'hardwareStatus', event: { type: 'event.received', event: reader } }]);
    expect(routeMessage(DESTINATIONS.alarmAction, { eventPointId: 10, process: true })).toEqual([
      { to: 'alarms', event: { type: 'alarm.actioned', action: { eventPointId: 10, process: true } } },
    ]);
    expect(routeMessage(DESTINATIONS.acknowledge, { id: 1, acknowledge: true })).toEqual([
      { to: 'alarms', event: { type: 'alarm.acknowledged', update: { id: 1, acknowledge: true } } },
    ]);
    expect(routeMessage(DESTINATIONS.alarmCount, { count: 4 })).toEqual([{ to: 'alarms', event: { type: 'alarm.counted', count: 4 } }]);
    expect(routeMessage(DESTINATIONS.hardware, { id: 7, status: 'x' })).toEqual([
      { to: 'hardwareStatus', event: { type: 'hardware.statusPushed', status: { id: 7, status: 'x' } } },
    ]);
    expect(routeMessage(DESTINATIONS.doorHeartbeat, { id: 2 })).toEqual([{ to: 'hardwareStatus', event: { type: 'door.heartbeatReceived', door: { id: 2 } } }]);
    expect(routeMessage(DESTINATIONS.controllerHeartbeat, [{ id: 1 }])).toEqual([
      { to: 'hardwareStatus', event: { type: 'controller.heartbeatReceived', controllers: [{ id: 1 }] } },
    ]);
    for (const d of [DESTINATIONS.greetings, DESTINATIONS.clocking, DESTINATIONS.dynamicQr, '/nowhere']) expect(routeMessage(d, {})).toEqual([]);
  });
});

/** A socket in a system beside two listeners standing for the alarms and hardwareStatus machines. */
function start(service: RealtimeService, autoConnect?: boolean, withMachines = true) {
  const clock = new SimulatedClock();
  const controls = createControls();
  const heard: Array<[string, unknown]> = [];
  const order: string[] = [];
  const transports: Array<{ input: ConnectionInput; send: (e: SocketEvent) => void; stopped: boolean }> = [];
  const connection = fromCallback<SocketEvent, ConnectionInput>(({ input, sendBack }) => {
    const t = { input, send: sendBack, stopped: false };
    transports.push(t);
    return () => {
      t.stopped = true;
    };
  });
  const listener = fromCallback<{ type: string }, string>(({ input, receive }) => {
    receive((e) => {
      heard.push([input, e]);
      order.push(`${input}:${e.type}`);
    });
  });
  const root = setup({
    actors: { socket: socketMachine.provide({ actors: { readToken: controls.logic<string | null, unknown>(), connection } }), listener },
  }).createMachine({
    invoke: [
      ...(withMachines
        ? [
            { id: 'alarms', systemId: 'alarms', src: 'listener' as const, input: 'alarms' },
            { id: 'hardwareStatus', systemId: 'hardwareStatus', src: 'listener' as const, input: 'hardwareStatus' },
          ]
        : []),
      { id: 'socket', systemId: SOCKET_SYSTEM_IDS[service], src: 'socket' as const, input: { service, ...(autoConnect === undefined ? {} : { autoConnect }) } },
    ],
  });
  const actor = createActor(root, { clock }).start();
  const socket = actor.system.get(SOCKET_SYSTEM_IDS[service]) as AnyActorRef;
  const told: unknown[] = [];
  socket.on('*', (e: { type: string }) => {
    told.push(e);
    order.push(`view:${e.type}`);
  });
  const snap = () => socket.getSnapshot() as SocketSnapshot;
  const send = (e: SocketEvent) => socket.send(e);
  /** connect with the stored token and open the transport */
  async function online(token: string | null = JWT) {
    send({ type: 'socket.connect' });
    await controls.settle(controls.inputs[controls.inputs.length - 1].id, 'done', token);
    transports[transports.length - 1].send({ type: 'socket.connected' });
    await flush();
  }
  return { clock, controls, heard, order, transports, socket, snap, send, told, online };
}

describe('socket rules: connecting, waiting and reconnecting (§4)', () => {
  it('starts idle unless told to connect; with autoConnect it reads the token at once', () => {
    for (const auto of [undefined, false]) {
      const t = start('event', auto);
      expect(t.snap().value).toBe('idle');
      expect(t.snap().context).toEqual({ service: 'event', autoConnect: false, userCount: 0, dropped: 0, connects: 0 });
      expect(t.controls.inputs).toEqual([]);
    }
    const t = start('event', true);
    expect(t.snap().value).toBe('checking');
    expect(t.snap().context.autoConnect).toBe(true);
    expect(t.controls.inputs.map((x) => x.id)).toEqual(['readToken']);
  });
  it('the event service connects only with a stored token, handing it to the transport', async () => {
    const t = start('event');
    t.send({ type: 'session.started' });
    expect(t.snap().value).toBe('checking');
    await t.controls.settle('readToken', 'done', null);
    expect(t.snap().value).toBe('idle');
    expect(t.transports).toEqual([]);
    t.send({ type: 'socket.connect' });
    await t.controls.settle('readToken', 'error', new Error('storage'));
    expect(t.snap().value).toBe('idle');
    t.send({ type: 'socket.connect' });
    await t.controls.settle('readToken', 'done', JWT);
    expect(t.snap().value).toEqual({ online: 'connecting' });
    expect(t.transports.map((x) => x.input)).toEqual([{ service: 'event', token: JWT }]);
  });
  it('the visitor service connects without a token', async () => {
    const t = start('visitor');
    t.send({ type: 'socket.connect' });
    await t.controls.settle('readToken', 'done', null);
    expect(t.snap().value).toEqual({ online: 'connecting' });
    expect(t.transports.map((x) => x.input)).toEqual([{ service: 'visitor', token: null }]);
  });
  it('connected: counted, resynced (the alarms re-read the open list on the event service only), told to the views', async () => {
    const t = start('event');
    await t.online();
    expect(t.snap().value).toEqual({ online: 'connected' });
    expect(t.snap().context.connects).toBe(1);
    expect(t.heard).toEqual([['alarms', { type: 'socket.resynced' }]]);
    expect(t.told).toEqual([{ type: 'socket.resynced', service: 'event' }]);
    // a wake while connected resyncs again; a second connected is not heard once connected
    t.send({ type: 'socket.wake' });
    expect(t.heard).toHaveLength(2);
    expect(t.told).toHaveLength(2);
    t.transports[0].send({ type: 'socket.connected' });
    expect(t.snap().context.connects).toBe(1);
    const c = start('central');
    await c.online();
    expect(c.heard).toEqual([]);
    expect(c.told).toEqual([{ type: 'socket.resynced', service: 'central' }]);
    // no alarms machine in the system: the views are told all the same
    const lone = start('event', false, false);
    await lone.online();
    expect(lone.told).toEqual([{ type: 'socket.resynced', service: 'event' }]);
  });
  it('a wake while still connecting resyncs nothing; a message then is not heard', async () => {
    const t = start('event');
    t.send({ type: 'socket.connect' });
    await t.controls.settle('readToken', 'done', JWT);
    t.send({ type: 'socket.wake' });
    t.send({ type: 'socket.message', destination: DESTINATIONS.events, body: alarm });
    expect(t.heard).toEqual([]);
    expect(t.told).toEqual([]);
  });
  it('closed or failed: waits 5 s with the transport stopped, then reads the token again', async () => {
    const t = start('event');
    await t.online();
    t.transports[0].send({ type: 'socket.closed', reason: 'broker down' });
    expect(t.snap().value).toBe('waiting');
    expect(t.transports[0].stopped).toBe(true);
    t.clock.increment(SOCKET_RECONNECT_MS - 1);
    expect(t.snap().value).toBe('waiting');
    t.clock.increment(1);
    expect(t.snap().value).toBe('checking');
    await t.controls.settle('readToken', 'done', JWT);
    t.transports[1].send({ type: 'socket.connected' });
    expect(t.snap().context.connects).toBe(2);
    expect(t.heard).toHaveLength(2);
  });
  it('a transport that fails to start waits to reconnect too', async () => {
    const clock = new SimulatedClock();
    const controls = createControls();
    const failing = fromCallback<SocketEvent, ConnectionInput>(() => {
      throw new Error('no WebSocket');
    });
    const a = createActor(socketMachine.provide({ actors: { readToken: controls.logic<string | null, unknown>(), connection: failing } }), {
      input: { service: 'event' },
      clock,
    }).start();
    a.send({ type: 'socket.connect' });
    await controls.settle('readToken', 'done', JWT);
    expect(a.getSnapshot().value).toBe('waiting');
  });
  it('sign-out disconnects from anywhere and forgets the visitor count', async () => {
    const t = start('visitor');
    await t.online(null);
    t.send({ type: 'socket.userJoined' });
    t.send({ type: 'socket.userJoined' });
    expect(t.snap().context.userCount).toBe(2);
    t.send({ type: 'session.ended' });
    expect(t.snap().value).toBe('idle');
    expect(t.snap().context.userCount).toBe(0);
    expect(t.transports[0].stopped).toBe(true);
  });
  it('counts users on the visitor service only, never below 0', () => {
    const v = start('visitor');
    v.send({ type: 'socket.userLeft' });
    expect(v.snap().context.userCount).toBe(0);
    v.send({ type: 'socket.userJoined' });
    v.send({ type: 'socket.userJoined' });
    v.send({ type: 'socket.userLeft' });
    expect(v.snap().context.userCount).toBe(1);
    const e = start('event');
    e.send({ type: 'socket.userJoined' });
    expect(e.snap().context.userCount).toBe(0);
    e.send({ type: 'socket.userLeft' });
    expect(e.snap().context.userCount).toBe(0);
  });
});

describe('socket rules: the messages of a connected socket', () => {
  it('one valid frame: the alarms and hardware machines hear its fact as itself, then the views the parsed body', async () => {
    const t = start('event');
    await t.online();
    t.heard.length = 0;
    t.told.length = 0;
    t.order.length = 0;
    t.send({ type: 'socket.message', destination: DESTINATIONS.events, body: JSON.stringify(alarm) });
    const parsed = checkMessage('event', DESTINATIONS.events, alarm);
    expect(parsed.ok).toBe(true);
    const event = (parsed as { value: unknown }).value;
    expect(t.heard).toEqual([
      ['alarms', { type: 'event.received', event }],
      ['hardwareStatus', { type: 'event.received', event }],
    ]);
    expect(t.told).toEqual([{ type: 'socket.message', service: 'event', destination: DESTINATIONS.events, body: event }]);
    expect(t.order).toEqual(['alarms:event.received', 'hardwareStatus:event.received', 'view:socket.message']);
    expect(t.snap().context.dropped).toBe(0);
  });
  it('a batch: each body checked on its own, bad ones dropped and counted, each machine told once, the views each in order', async () => {
    const t = start('event');
    await t.online();
    t.heard.length = 0;
    t.told.length = 0;
    t.send({
      type: 'socket.messages',
      messages: [
        { destination: DESTINATIONS.alarmCount, body: { count: 4 } },
        { destination: DESTINATIONS.alarmCount, body: 'not json' },
        { destination: DESTINATIONS.acknowledge, body: { id: 1, acknowledge: true } },
        { destination: DESTINATIONS.controllerHeartbeat, body: [] },
        { destination: DESTINATIONS.doorHeartbeat, body: { id: 2, doorStatus: 'Open' } },
        { destination: DESTINATIONS.greetings, body: { content: 'hi' } },
      ],
    });
    expect(t.heard).toEqual([
      [
        'alarms',
        {
          type: 'facts.received',
          facts: [
            { type: 'alarm.counted', count: 4 },
            { type: 'alarm.acknowledged', update: { id: 1, acknowledge: true } },
          ],
        },
      ],
      ['hardwareStatus', { type: 'door.heartbeatReceived', door: { id: 2, name: null, doorStatus: 'Open' } }],
    ]);
    expect(t.told).toEqual([
      { type: 'socket.message', service: 'event', destination: DESTINATIONS.alarmCount, body: { count: 4 } },
      { type: 'socket.invalidMessage', service: 'event', destination: DESTINATIONS.alarmCount, violations: [{ field: '(body)', message: 'is not JSON' }] },
      { type: 'socket.message', service: 'event', destination: DESTINATIONS.acknowledge, body: { id: 1, acknowledge: true } },
      {
        type: 'socket.invalidMessage',
        service: 'event',
        destination: DESTINATIONS.controllerHeartbeat,
        violations: [{ field: '(destination)', message: 'is not served by the event service' }],
      },
      { type: 'socket.message', service: 'event', destination: DESTINATIONS.doorHeartbeat, body: { id: 2, name: null, doorStatus: 'Open' } },
      { type: 'socket.message', service: 'event', destination: DESTINATIONS.greetings, body: { content: 'hi' } },
    ]);
    expect(t.snap().context.dropped).toBe(2);
    expect(selectDroppedMessages(t.snap())).toBe(2);
    // a batch of greetings only: no machine hears anything
    t.heard.length = 0;
    t.send({ type: 'socket.messages', messages: [{ destination: DESTINATIONS.greetings, body: {} }] });
    expect(t.heard).toEqual([]);
    expect(t.snap().context.dropped).toBe(2);
  });
  it('without the machines in the system the views are still told', async () => {
    const t = start('event', false, false);
    await t.online();
    t.told.length = 0;
    t.send({ type: 'socket.message', destination: DESTINATIONS.alarmCount, body: { count: 1 } });
    t.send({ type: 'socket.message', destination: DESTINATIONS.hardware, body: { id: 1, status: 'x' } });
    expect(t.told).toHaveLength(2);
  });
});

describe('socket selectors, worked out by hand', () => {
  it('say idle, connecting, connected and waiting, online, the users and the drops', async () => {
    const t = start('visitor');
    expect([selectSocketStatus(t.snap()), selectIsOnline(t.snap())]).toEqual(['idle', false]);
    t.send({ type: 'socket.connect' });
    expect(selectSocketStatus(t.snap())).toBe('connecting');
    await t.controls.settle('readToken', 'done', null);
    expect(selectSocketStatus(t.snap())).toBe('connecting');
    t.transports[0].send({ type: 'socket.connected' });
    expect([selectSocketStatus(t.snap()), selectIsOnline(t.snap())]).toEqual(['connected', true]);
    t.send({ type: 'socket.userJoined' });
    expect(selectUserCount(t.snap())).toBe(1);
    t.transports[0].send({ type: 'socket.closed' });
    expect([selectSocketStatus(t.snap()), selectIsOnline(t.snap())]).toEqual(['waiting', false]);
  });
});

describe('the invariants of the socket machine reject the states that break them', () => {
  type Snap = {
    context: { service: string; userCount: number; dropped: number; connects: number };
    children: Record<string, unknown>;
    hasTag: (t: string) => boolean;
  };
  type Inv = Record<string, (s: Snap) => boolean>;
  const at = (s: string) => (invariants as unknown as Record<string, Inv>)[s];
  const snap = (c: Partial<Snap['context']>, children: string[] = [], tags: string[] = []): Snap => ({
    context: { service: 'event', userCount: 0, dropped: 0, connects: 0, ...c },
    children: Object.fromEntries(children.map((id) => [id, {}])),
    hasTag: (tag) => tags.includes(tag),
  });
  const COUNTS = 'counts are whole and never below 0';
  const USERS = 'only the visitor-management connection counts users';
  const TOGETHER = 'the token read and the transport never run together';
  const IDLE = 'disconnected: no transport, no token read, neither busy nor online';
  const CHECK = 'the stored token is read, busy, not online';
  const RUNS = 'the transport runs';
  const CONNECTING = 'busy, not yet online';
  const CONNECTED = 'online, not busy, and counted as connected at least once';
  const WAIT = 'waiting to reconnect: no transport, no token read, neither busy nor online';
  const cases: Array<[string, string, Snap, boolean]> = [
    ['machine', COUNTS, snap({ userCount: 0, dropped: 3, connects: 1, service: 'visitor' }), true],
    ['machine', COUNTS, snap({ userCount: -1, service: 'visitor' }), false],
    ['machine', COUNTS, snap({ dropped: -1 }), false],
    ['machine', COUNTS, snap({ connects: -1 }), false],
    ['machine', COUNTS, snap({ dropped: 0.5 }), false],
    ['machine', USERS, snap({ service: 'visitor', userCount: 2 }), true],
    ['machine', USERS, snap({ service: 'event', userCount: 0 }), true],
    ['machine', USERS, snap({ service: 'event', userCount: 1 }), false],
    ['machine', TOGETHER, snap({}, ['readToken']), true],
    ['machine', TOGETHER, snap({}, ['connection']), true],
    ['machine', TOGETHER, snap({}, ['readToken', 'connection']), false],
    ['idle', IDLE, snap({}), true],
    ['idle', IDLE, snap({}, ['connection']), false],
    ['idle', IDLE, snap({}, ['readToken']), false],
    ['idle', IDLE, snap({}, [], ['busy']), false],
    ['idle', IDLE, snap({}, [], ['online']), false],
    ['checking', CHECK, snap({}, ['readToken'], ['busy']), true],
    ['checking', CHECK, snap({}, [], ['busy']), false],
    ['checking', CHECK, snap({}, ['readToken'], []), false],
    ['checking', CHECK, snap({}, ['readToken'], ['busy', 'online']), false],
    ['online', RUNS, snap({}, ['connection']), true],
    ['online', RUNS, snap({}, []), false],
    ['connecting', CONNECTING, snap({}, [], ['busy']), true],
    ['connecting', CONNECTING, snap({}, [], []), false],
    ['connecting', CONNECTING, snap({}, [], ['busy', 'online']), false],
    ['connected', CONNECTED, snap({ connects: 1 }, [], ['online']), true],
    ['connected', CONNECTED, snap({ connects: 0 }, [], ['online']), false],
    ['connected', CONNECTED, snap({ connects: 1 }, [], []), false],
    ['connected', CONNECTED, snap({ connects: 1 }, [], ['online', 'busy']), false],
    ['waiting', WAIT, snap({}), true],
    ['waiting', WAIT, snap({}, ['connection']), false],
    ['waiting', WAIT, snap({}, ['readToken']), false],
    ['waiting', WAIT, snap({}, [], ['busy']), false],
    ['waiting', WAIT, snap({}, [], ['online']), false],
  ];
  it.each(cases.map(([where, name, s, holds], i) => ({ i, where, name, s, holds })))('#$i $where: $name → $holds', ({ where, name, s, holds }) => {
    expect(at(where)[name](s)).toBe(holds);
  });
});
