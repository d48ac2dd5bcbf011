// Model-based tests generated from the socket machine's graph (every reachable state and transition, for each
// service), replayed on a real actor with a fake transport and a SimulatedClock; then the numbers (exactly
// 5000 ms, no reconnect without a jwt) with fake timers, and the routing of valid bodies to the other machines.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestModel } from '@xstate/graph';
import { SimulatedClock, createActor, fromCallback, fromPromise } from 'xstate';
import { SOCKET_RECONNECT_MS, type Event, type RealtimeService } from '../contract';
import { checkMessage, routeMessage, socketMachine, type ConnectionInput, type SocketEvent, type SocketSnapshot } from '../machines/socket';
import { selectDroppedMessages, selectIsOnline, selectSocketStatus, selectUserCount } from '../machines/socket.selectors';
import { JWT, eventSocketSystem } from './eventSystem';
import {
  actorEventExecutors,
  createControls,
  edgePaths,
  onDemand,
  expectInvariants,
  expectOracle,
  flush,
  type EdgePath,
  inStep,
  type StepProperties,
} from './harness';

const EVENT: Event = {
  id: 11,
  eventCode: 5001,
  eventPointId: 40,
  eventSourceId: 4,
  eventPointName: 'Front door',
  eventSourceName: 'Reader 4',
  message: 'Door forced open',
  alert: true,
  acknowledge: false,
  process: false,
  eventPoint: [],
  time: '2024-05-01T10:00:00Z',
  priority: 1,
};

const messages: Record<RealtimeService, SocketEvent[]> = {
  event: [
    { type: 'socket.message', destination: '/alarmcount', body: { count: 2 } },
    { type: 'socket.message', destination: '/alarmcount', body: '{"count":"two"}' },
    { type: 'socket.message', destination: '/events', body: JSON.stringify(EVENT) },
    { type: 'socket.message', destination: '/hbcontroller', body: [{ id: 1, name: 'C1' }] }, // another service's
    // one broker message of several frames: a count, a bad count and an alarm, in one transition
    {
      type: 'socket.messages',
      messages: [
        { destination: '/alarmcount', body: { count: 3 } },
        { destination: '/alarmcount', body: '{"count":"two"}' },
        { destination: '/events', body: JSON.stringify(EVENT) },
      ],
    },
  ],
  central: [
    { type: 'socket.message', destination: '/hbcontroller', body: [{ id: 1, name: 'C1' }] },
    { type: 'socket.message', destination: '/hbcontroller', body: 'not json' },
    {
      type: 'socket.messages',
      messages: [
        { destination: '/hbcontroller', body: [{ id: 2, name: 'C2' }] },
        { destination: '/hbdoor', body: { id: 5 } },
      ],
    },
  ],
  visitor: [
    { type: 'socket.message', destination: '/dynamic-qr', body: { doorId: 3, code: 'QR-1' } },
    { type: 'socket.message', destination: '/clocking', body: { identityId: 'x', time: 7 } },
    {
      type: 'socket.messages',
      messages: [
        { destination: '/dynamic-qr', body: { doorId: 4, code: 'QR-2' } },
        { destination: '/dynamic-qr', body: 'nope' },
      ],
    },
  ],
};

function eventsFor(service: RealtimeService): any[] {
  return [
    { type: 'socket.connect' },
    { type: 'session.started' },
    { type: 'session.ended' },
    { type: 'xstate.done.actor.readToken', output: JWT },
    { type: 'xstate.done.actor.readToken', output: null },
    { type: 'xstate.error.actor.readToken', error: new Error('storage unavailable') },
    { type: 'socket.connected' },
    { type: 'socket.closed', reason: 'server gone' },
    { type: 'xstate.error.actor.connection', error: new Error('transport failed') },
    ...messages[service],
    { type: 'socket.userJoined' },
    { type: 'socket.userLeft' },
    { type: 'socket.wake' },
    { type: 'xstate.after.reconnect.socket.waiting' },
  ];
}

const TRANSPORT = new Set(['socket.connected', 'socket.closed', 'socket.message', 'socket.messages', 'xstate.error.actor.connection']);
/** Only what the real system can produce there: an actor's answer while it runs, transport events while online. */
function possible(s: SocketSnapshot, events: any[]) {
  return events.filter((e) => {
    if (TRANSPORT.has(e.type)) return s.matches('online');
    const m = /^xstate\.(?:done|error)\.actor\.(readToken)$/.exec(e.type);
    if (m) return Object.keys(s.children).includes(m[1]);
    if (e.type.startsWith('xstate.after.')) return s.matches('waiting');
    return true;
  });
}

const serialize = (s: SocketSnapshot) => JSON.stringify([s.value, Math.min(s.context.userCount, 2), s.context.dropped > 0, s.context.connects > 0]);

function modelFor(service: RealtimeService) {
  const events = eventsFor(service);
  const model = new TestModel(socketMachine as any, {
    events: (s: SocketSnapshot) => possible(s, events),
    serializeState: serialize as any,
    input: { service },
    limit: 20_000,
  });
  return { model, events, paths: onDemand(() => edgePaths(model, socketMachine, serialize, ['xstate.emit'], { service })) };
}

async function run(service: RealtimeService, model: TestModel<any, any, any>, events: any[], { path }: EdgePath<typeof socketMachine>) {
  const controls = createControls();
  const clock = new SimulatedClock();
  const transport: Array<{ start: ConnectionInput } | 'stop'> = [];
  const connection = fromCallback<SocketEvent, ConnectionInput>(({ input }) => {
    transport.push({ start: input });
    return () => {
      transport.push('stop');
    };
  });
  const actor = createActor(socketMachine.provide({ actors: { readToken: controls.logic(), connection } }), { clock, input: { service } });
  const emitted: unknown[] = [];
  actor.on('*', (e) => {
    emitted.push(e);
  });
  actor.start();
  const exec: Record<string, (step: { event: any }) => Promise<void>> = {
    ...actorEventExecutors(events, controls),
    'xstate.after.reconnect.socket.waiting': async () => {
      clock.increment(SOCKET_RECONNECT_MS);
      await flush();
    },
  };
  for (const e of events)
    if (!e.type.startsWith('xstate.') || e.type === 'xstate.error.actor.connection')
      exec[e.type] = async ({ event }) => {
        actor.send(event);
        await flush();
      };
  await model.testPath(path as any, {
    states: {
      '*': (expected: SocketSnapshot) => {
        const real = actor.getSnapshot();
        inStep(real, expected); // the oracle is below, not the machine compared with itself
        expectInvariants(real);
        // the transport runs exactly while online, with the stored jwt
        expect(Object.keys(real.children).includes('connection')).toBe(expected.matches('online'));
        const last = transport.at(-1);
        expect(last !== undefined && last !== 'stop').toBe(expected.matches('online'));
        if (last && last !== 'stop') expect(last.start.service).toBe(service);
      },
    },
    events: exec,
  });
  actor.stop();
}

/** Frames of one socket event: those of a batch, or the one message. */
const framesOf = (e: any): Array<{ destination: string; body: unknown }> =>
  e.type === 'socket.messages' ? e.messages : e.type === 'socket.message' ? [e] : [];
/** The bodies each service accepts, from the test's own messages and §4's destinations (not from the machine's check):
 * the event service hears alarm counts, events and door heart-beats; central the controllers'; visitor QR codes. */
const VALID: Record<RealtimeService, string[]> = {
  event: ['/alarmcount {"count":2}', '/alarmcount {"count":3}', `/events ${JSON.stringify(EVENT)}`],
  central: ['/hbcontroller [{"id":1,"name":"C1"}]', '/hbcontroller [{"id":2,"name":"C2"}]'],
  visitor: ['/dynamic-qr {"doorId":3,"code":"QR-1"}', '/dynamic-qr {"doorId":4,"code":"QR-2"}'],
};
const validFor = (service: RealtimeService, m: { destination: string; body: unknown }) =>
  VALID[service].includes(`${m.destination} ${typeof m.body === 'string' ? m.body : JSON.stringify(m.body)}`);
const emittedOf = (effects: Array<{ type: string; params: unknown }>) =>
  effects.filter((f) => f.type === 'xstate.emit').map((f) => (f.params as { event: { type: string } }).event);

/** §4 (realtime) as properties of each step, written from the specification, not from the transitions. */
function propertiesFor(service: RealtimeService): StepProperties<SocketSnapshot> {
  return {
    'a connect is counted once and announced as a resync of this service': ({ before, event, after, effects }) =>
      event.type === 'socket.connected' && before.matches({ online: 'connecting' })
        ? after.context.connects === before.context.connects + 1 &&
          emittedOf(effects).some((e) => e.type === 'socket.resynced' && (e as { service?: string }).service === service)
        : undefined,
    'while connected, each invalid frame is counted as dropped and each valid one heard, in order': ({ before, event, effects }) => {
      const frames = framesOf(event);
      if (!frames.length || !before.matches({ online: 'connected' })) return undefined;
      const heard = emittedOf(effects) as Array<{ type: string; destination: string }>;
      return (
        heard.length === frames.length &&
        frames.every((f, i) => heard[i].destination === f.destination && heard[i].type === (validFor(service, f) ? 'socket.message' : 'socket.invalidMessage'))
      );
    },
    'dropped counts exactly the invalid frames of the step': ({ before, event, after }) => {
      const frames = framesOf(event);
      if (!frames.length) return undefined;
      const invalid = before.matches({ online: 'connected' }) ? frames.filter((f) => !validFor(service, f)).length : 0;
      return after.context.dropped === before.context.dropped + invalid;
    },
    'a wake while connected resyncs; elsewhere it does nothing': ({ before, event, after, effects }) =>
      event.type === 'socket.wake'
        ? emittedOf(effects).some((e) => e.type === 'socket.resynced') === before.matches({ online: 'connected' }) &&
          JSON.stringify(after.value) === JSON.stringify(before.value)
        : undefined,
    'signing out disconnects and forgets the users': ({ event, after }) =>
      event.type === 'session.ended' ? after.matches('idle') && after.context.userCount === 0 : undefined,
    'a closed transport waits to reconnect': ({ before, event, after }) =>
      (event.type === 'socket.closed' || event.type === 'xstate.error.actor.connection') && before.matches('online') ? after.matches('waiting') : undefined,
    'no token, no connection (except visitor management)': ({ event, after }) =>
      event.type === 'xstate.done.actor.readToken' ? after.matches('online') === (service === 'visitor' || event.output != null) : undefined,
  };
}

describe.each(['event', 'central', 'visitor'] as const)('socket machine model (%s service)', (service) => {
  const { model, events, paths } = modelFor(service);

  it('keeps the invariants of its states (socket.invariants.ts) and the realtime rules at every step of the generated paths', () => {
    expectOracle(paths(), propertiesFor(service), 9);
  });

  it('reaches idle, checking, connecting, connected and waiting', () => {
    const values = new Set(paths().map((p) => JSON.stringify(p.path.state.value)));
    for (const v of ['idle', 'checking', { online: 'connecting' }, { online: 'connected' }, 'waiting']) expect(values).toContain(JSON.stringify(v));
  });
  it(`runs the transport exactly while online, with the stored token, on the real actor, along every generated path`, async () => {
    for (const p of paths()) await run(service, model, events, p);
  });
});

describe('socket reconnect timing (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function start(service: RealtimeService, stored: { jwt: string | null }) {
    const starts: ConnectionInput[] = [];
    let stops = 0;
    const actor = createActor(
      socketMachine.provide({
        actors: {
          readToken: fromPromise(async () => stored.jwt),
          connection: fromCallback<SocketEvent, ConnectionInput>(({ input }) => {
            starts.push(input);
            return () => {
              stops++;
            };
          }),
        },
      }),
      { input: { service } },
    ).start();
    return { actor, starts, stops: () => stops };
  }
  const settle = () => vi.advanceTimersByTimeAsync(0);

  it('reconnects after exactly 5000 ms while a jwt is stored', async () => {
    const stored = { jwt: JWT as string | null };
    const { actor, starts } = start('event', stored);
    actor.send({ type: 'session.started' });
    await settle();
    expect(starts).toEqual([{ service: 'event', token: JWT }]);
    actor.send({ type: 'socket.connected' });
    actor.send({ type: 'socket.closed' });
    expect(actor.getSnapshot().value).toBe('waiting');

    await vi.advanceTimersByTimeAsync(SOCKET_RECONNECT_MS - 1);
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(starts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toEqual({ online: 'connecting' });
    expect(starts).toEqual([
      { service: 'event', token: JWT },
      { service: 'event', token: JWT },
    ]);
    expect(SOCKET_RECONNECT_MS).toBe(5000);
  });

  it('does not reconnect once the jwt is gone', async () => {
    const stored = { jwt: JWT as string | null };
    const { actor, starts, stops } = start('central', stored);
    actor.send({ type: 'socket.connect' });
    await settle();
    actor.send({ type: 'socket.closed' });
    stored.jwt = null;
    await vi.advanceTimersByTimeAsync(SOCKET_RECONNECT_MS);
    expect(actor.getSnapshot().value).toBe('idle');
    await vi.advanceTimersByTimeAsync(SOCKET_RECONNECT_MS * 10);
    expect(starts).toHaveLength(1);
    expect(stops()).toBe(1);
  });

  it('reconnects the visitor-management connection after 5 s even without a jwt', async () => {
    const stored = { jwt: null as string | null };
    const { actor, starts } = start('visitor', stored);
    actor.send({ type: 'socket.connect' });
    await settle();
    actor.send({ type: 'socket.closed' });
    await vi.advanceTimersByTimeAsync(SOCKET_RECONNECT_MS - 1);
    expect(starts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([
      { service: 'visitor', token: null },
      { service: 'visitor', token: null },
    ]);
  });

  it('disconnects on session.ended and does not come back by itself', async () => {
    const { actor, starts, stops } = start('event', { jwt: JWT });
    actor.send({ type: 'session.started' });
    await settle();
    actor.send({ type: 'socket.connected' });
    actor.send({ type: 'session.ended' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(stops()).toBe(1);
    await vi.advanceTimersByTimeAsync(SOCKET_RECONNECT_MS * 3);
    expect(starts).toHaveLength(1);
  });

  it('waits 5 s after a transport that throws on start', async () => {
    let attempts = 0;
    const actor = createActor(
      socketMachine.provide({
        actors: {
          readToken: fromPromise<string | null>(async () => JWT),
          connection: fromCallback(() => {
            attempts++;
            throw new Error('SockJS unavailable');
          }),
        },
      }),
      { input: { service: 'event' } },
    ).start();
    actor.send({ type: 'socket.connect' });
    await settle();
    expect(actor.getSnapshot().value).toBe('waiting');
    await vi.advanceTimersByTimeAsync(SOCKET_RECONNECT_MS);
    expect(attempts).toBe(2);
  });
});

describe('socket message handling', () => {
  it('validates bodies with the schema of their destination and service', () => {
    expect(checkMessage('event', '/alarmcount', '{"count":3}')).toEqual({ ok: true, value: { count: 3 } });
    expect(checkMessage('event', '/alarmcount', { count: 'x' }).ok).toBe(false);
    expect(checkMessage('event', '/hbcontroller', []).ok).toBe(false);
    expect(checkMessage('central', '/hbcontroller', [{ id: 1, name: 'C' }])).toEqual({ ok: true, value: [{ id: 1, name: 'C' }] });
    expect(checkMessage('event', '/hbdoor', { id: 2 })).toEqual({ ok: true, value: { id: 2, name: null, doorStatus: 'closed' } });
    expect(checkMessage('event', '/events/door-2', { eventCode: 2001, eventSourceId: 5 }).ok).toBe(true);
    expect(checkMessage('event', '/events', { eventCode: 2001, eventSourceId: 5 }).ok).toBe(false);
  });

  it('routes /events to alarms and hardwareStatus, /events/{suffix} to hardwareStatus only', () => {
    expect(routeMessage('/events', EVENT).map((r) => r.to)).toEqual(['alarms', 'hardwareStatus']);
    expect(routeMessage('/events/x', { eventCode: 1012, eventSourceId: 1 }).map((r) => r.to)).toEqual(['hardwareStatus']);
    expect(routeMessage('/topic/greetings', {})).toEqual([]);
  });

  it('hands valid bodies to the alarms and hardwareStatus actors, resyncs alarms on connect, and drops invalid ones', async () => {
    const loads: number[] = [];
    const { actor, socket, alarms, hardware } = eventSocketSystem(async () => {
      loads.push(1);
      return [{ ...EVENT, id: 99, eventPointId: 77 }];
    });
    const out: any[] = [];
    socket.on('*', (e: unknown) => out.push(e));
    socket.send({ type: 'socket.connect' });
    await flush();
    socket.send({ type: 'socket.connected' });
    await flush();
    expect(loads).toEqual([1]);
    expect(alarms.getSnapshot().context.alarms.map((a: Event) => a.id)).toEqual([99]);

    socket.send({ type: 'socket.message', destination: '/events', body: JSON.stringify(EVENT) });
    socket.send({ type: 'socket.message', destination: '/events/reader-4', body: { eventCode: 4003, eventSourceId: 4, eventSourceName: 'Reader 4' } });
    socket.send({ type: 'socket.message', destination: '/acknowledge/event', body: { id: 11, acknowledge: 'yes' } });
    expect(alarms.getSnapshot().context.alarms.map((a: Event) => [a.id, a.acknowledge])).toEqual([
      [99, false],
      [11, false],
    ]);
    expect(hardware.getSnapshot().context.statuses['4']).toEqual({ id: 4, name: 'Reader 4', status: 'offline', kind: 'cardReader' });
    expect(out.map((e) => e.type)).toEqual(['socket.resynced', 'socket.message', 'socket.message', 'socket.invalidMessage']);
    expect(out[3].violations[0]).toEqual({ field: 'acknowledge', message: 'must be yes or no', code: 'value.notYesNo', values: {} });

    const snap = socket.getSnapshot() as SocketSnapshot;
    expect(selectSocketStatus(snap)).toBe('connected');
    expect(selectIsOnline(snap)).toBe(true);
    expect(selectDroppedMessages(snap)).toBe(1);
    expect(selectUserCount(snap)).toBe(0);
    actor.stop();
  });
});
