// Model-based tests of the desktop companion: every reachable state and transition of the graph, replayed on
// a real actor with fake discovery/socket actors and a SimulatedClock; then the numbers (10 s per probe,
// backoff 1/2/4/8/16/30/30 s and its reset) with vitest's fake timers; then hostile replies.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestModel } from '@xstate/graph';
import { SimulatedClock, createActor, fromCallback, fromPromise } from 'xstate';
import { COMPANION_MAX_MESSAGE_CHARS, COMPANION_PORTS, COMPANION_PROBE_TIMEOUT_MS, backoffMs } from '../contract';
import { companionMachine, portOrder, type CompanionEmitted, type CompanionSnapshot, type CompanionSocketCommand } from '../machines/companion';
import { selectCanUseCompanion, selectCompanionStatus } from '../machines/companion.selectors';
import { invariants } from '../machines/companion.invariants';
import { actorEventExecutors, createControls, edgePaths, onDemand, expectInvariants, expectOracle, flush, type EdgePath, inStep } from './harness';

const PORTS = [47810, 47811, 47812];
const SHUFFLED = [47812, 47810, 47811];
const json = (o: unknown) => JSON.stringify(o);
const PNG = { name: 'photo.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' };
const MSG = {
  hello: json({ type: 'hello', version: '1.4.0', capabilities: ['photo.capture', 'badge.print', 'notify.alarm'] }),
  helloBare: json({ type: 'hello', version: '0.9.0', capabilities: [] }),
  photoR1: json({ type: 'photo.captured', requestId: 'r1', file: PNG }),
  printedR2: json({ type: 'badge.printed', requestId: 'r2' }),
  printedR1: json({ type: 'badge.printed', requestId: 'r1' }), // wrong kind for r1: out of order
  photoR9: json({ type: 'photo.captured', requestId: 'r9', file: PNG }), // nobody asked
  errorR2: json({ type: 'error', requestId: 'r2', message: 'Printer out of paper' }),
  error: json({ type: 'error', message: 'Camera unplugged' }),
  garbage: 'this is not json {',
  invalid: json({ type: 'photo.captured', requestId: 'r1' }), // no file
};
const messageEvents = Object.values(MSG).map((data) => ({ type: 'socket.message', data }));
const commands = [
  { type: 'companion.capturePhoto', purpose: 'identity', requestId: 'r1' },
  { type: 'companion.printBadge', visitor: { name: 'Vera Visitor', company: 'Acme' }, qr: 'VIS-42', requestId: 'r2' },
  { type: 'companion.printBadge', visitor: { name: '' }, requestId: 'r3' }, // invalid: never sent
  { type: 'companion.notify', title: 'Door forced', message: 'Main entrance' },
];

function eventsFor(s: CompanionSnapshot): any[] {
  const always = [...commands, { type: 'companion.retry' }];
  if (s.matches({ offline: 'shuffling' }))
    return [...always, { type: 'xstate.done.actor.shuffle', output: SHUFFLED }, { type: 'xstate.error.actor.shuffle', error: new Error('no randomness') }];
  if (s.matches({ offline: 'probing' }))
    return [
      ...always,
      { type: 'xstate.done.actor.probe', output: { name: 'Gatehouse Companion' } },
      { type: 'xstate.error.actor.probe', error: new Error('refused') },
      { type: 'xstate.after.probeTimeout.companion.offline.probing' },
    ];
  if (s.matches('online'))
    return [
      ...always,
      { type: 'socket.opened' },
      ...messageEvents,
      { type: 'socket.closed', reason: 'gone' },
      { type: 'xstate.error.actor.messages', error: new Error('bad url') },
    ];
  return [...always, { type: 'xstate.after.backoff.companion.waiting' }];
}

const serialize = (s: CompanionSnapshot) =>
  JSON.stringify([
    s.value,
    s.matches({ offline: 'probing' }) ? s.context.index : null,
    s.context.attempt > 0,
    Object.keys(s.context.pending).sort(),
    s.context.capabilities.length,
    s.context.order[0],
  ]);
const INPUT = { ports: PORTS };
const model = new TestModel(companionMachine as any, { events: eventsFor as any, serializeState: serialize as any, limit: 5000, input: INPUT } as any);
const paths = onDemand(() => edgePaths(model, companionMachine, serialize, [], INPUT));

/** An independent statement of what a step makes the machine emit and send. */
function expected(before: CompanionSnapshot, after: CompanionSnapshot, event: any) {
  const emitted: CompanionEmitted['type'][] = [];
  const sent: string[] = [];
  const connected = before.matches({ online: 'connected' });
  const caps = before.context.capabilities;
  const pending = before.context.pending;
  if (connected && event.type.startsWith('companion.') && event.type !== 'companion.retry') {
    const cap = { 'companion.capturePhoto': 'photo.capture', 'companion.printBadge': 'badge.print', 'companion.notify': 'notify.alarm' }[event.type as string]!;
    const valid = !(event.visitor && !event.visitor.name);
    if (!caps.includes(cap) || !valid || (event.requestId && pending[event.requestId])) emitted.push('companion.failed');
    else sent.push(cap);
  }
  if (before.matches('online') && event.type === 'socket.message') {
    const m = event.data === MSG.garbage ? null : JSON.parse(event.data);
    if (before.matches({ online: 'found' })) {
      emitted.push(m?.type === 'hello' && m.capabilities ? 'companion.connected' : 'companion.failed');
    } else if (m?.type === 'photo.captured' && m.file && pending[m.requestId]?.kind === 'photo.capture') emitted.push('companion.photoCaptured');
    else if (m?.type === 'badge.printed' && pending[m.requestId]?.kind === 'badge.print') emitted.push('companion.badgePrinted');
    else if (m?.type !== 'hello') emitted.push('companion.failed');
  }
  if (before.matches('online') && !after.matches('online')) {
    emitted.push('companion.disconnected');
    for (const _ of Object.keys(pending)) emitted.push('companion.failed');
  }
  return { emitted: emitted.sort(), sent };
}

async function run({ path }: EdgePath<typeof companionMachine>) {
  const controls = createControls();
  const clock = new SimulatedClock();
  const sent: CompanionSocketCommand[] = [];
  const messages = fromCallback<CompanionSocketCommand, { port: number }>(({ receive }) => {
    receive((e) => sent.push(e));
  });
  const machine = companionMachine.provide({ actors: { shufflePorts: controls.logic<number[], any>(), probePort: controls.logic<unknown, any>(), messages } });
  const actor = createActor(machine, { input: INPUT, clock });
  const emitted: CompanionEmitted[] = [];
  actor.on('*', (e) => emitted.push(e as CompanionEmitted));
  actor.start();
  await flush();
  let step = 0;
  let before = actor.getSnapshot();
  const send = async ({ event }: { event: any }) => {
    before = actor.getSnapshot();
    actor.send(event);
    await flush();
  };
  const settleActor = actorEventExecutors(
    ['shuffle', 'probe'].flatMap((id) => [{ type: `xstate.done.actor.${id}` }, { type: `xstate.error.actor.${id}` }]),
    controls,
  );
  const executors: Record<string, (s: { event: any }) => Promise<void>> = {};
  for (const e of [
    ...commands,
    ...messageEvents,
    { type: 'companion.retry' },
    { type: 'socket.opened' },
    { type: 'socket.closed' },
    { type: 'xstate.error.actor.messages' },
  ])
    executors[e.type] = send;
  for (const [type, exec] of Object.entries(settleActor))
    executors[type] = async (s) => {
      before = actor.getSnapshot();
      await exec(s);
    };
  executors['xstate.after.probeTimeout.companion.offline.probing'] = async () => {
    before = actor.getSnapshot();
    clock.increment(COMPANION_PROBE_TIMEOUT_MS);
    await flush();
  };
  executors['xstate.after.backoff.companion.waiting'] = async () => {
    before = actor.getSnapshot();
    clock.increment(backoffMs(before.context.attempt));
    await flush();
  };
  await model.testPath(path as any, {
    states: {
      '*': ((expectedSnap: CompanionSnapshot) => {
        const s = actor.getSnapshot();
        inStep(s, expectedSnap); // the oracle is below, not the machine compared with itself
        expectInvariants(s, invariants);
        const ev = path.steps[step]?.event;
        if (step > 0) {
          const want = expected(before, s, ev);
          expect(
            emitted
              .splice(0)
              .map((e) => e.type)
              .sort(),
          ).toEqual(want.emitted);
          expect(sent.splice(0).map((c) => c.message.type)).toEqual(want.sent);
        } else {
          emitted.length = 0;
        }
        step++;
      }) as (s: unknown) => void,
    },
    events: executors,
  });
  actor.stop();
}

describe('companion machine model', () => {
  it('reaches offline, found, connected and waiting, and every probed port', () => {
    const states = new Set(paths().map((p) => JSON.stringify(p.path.state.value)));
    expect(states).toEqual(
      new Set([json({ offline: 'shuffling' }), json({ offline: 'probing' }), json({ online: 'found' }), json({ online: 'connected' }), json('waiting')]),
    );
    const probed = new Set(
      paths()
        .filter((p) => p.path.state.matches({ offline: 'probing' }))
        .map((p) => p.path.state.context.index),
    );
    expect(probed).toEqual(new Set([0, 1, 2]));
  });
  it('keeps the invariants of its states (companion.invariants.ts) and the rules of §4 and §7 at every step of the generated paths', () => {
    const CAP: Record<string, string> = {
      'companion.capturePhoto': 'photo.capture',
      'companion.printBadge': 'badge.print',
      'companion.notify': 'notify.alarm',
    };
    expectOracle(
      paths(),
      {
        'a candidate that answers check-port is the one connected to (§7)': ({ before, event, after }) =>
          event.type === 'xstate.done.actor.probe' && before.matches({ offline: 'probing' })
            ? after.matches({ online: 'found' }) && after.context.port === before.context.order[before.context.index]
            : undefined,
        'a connection lost or refused waits its backoff before looking again (§4)': ({ before, event, after }) =>
          before.matches('online') && (event.type === 'socket.closed' || event.type === 'xstate.error.actor.messages') ? after.matches('waiting') : undefined,
        'Retry looks for the companion at once': ({ before, event, after }) =>
          before.matches('waiting') && event.type === 'companion.retry' ? after.matches('offline') : undefined,
        'a command the companion did not say it can do is never remembered as waiting': ({ before, event, after }) =>
          before.matches({ online: 'connected' }) && CAP[event.type] && !before.context.capabilities.includes(CAP[event.type])
            ? JSON.stringify(after.context.pending) === JSON.stringify(before.context.pending)
            : undefined,
        'an answer to a waiting request lets it go': ({ before, event, after }) =>
          before.matches({ online: 'connected' }) &&
          event.type === 'socket.message' &&
          event.data === MSG.photoR1 &&
          before.context.pending.r1?.kind === 'photo.capture'
            ? !('r1' in after.context.pending)
            : undefined,
      },
      10,
      invariants,
    );
  });
  it(`emits and sends at every step what the independent rules say (expected()), on the real actor, along every generated path`, async () => {
    for (const p of paths()) await run(p);
  });
});

// ---------- the numbers ----------
function startWithFakes(opts: { answers?: (port: number) => boolean; refuse?: boolean } = {}) {
  const probed: Array<{ port: number; at: number }> = [];
  const sockets: Array<{ port: number; sendBack: (e: any) => void }> = [];
  const machine = companionMachine.provide({
    actors: {
      shufflePorts: fromPromise(async ({ input }: { input: { ports: readonly number[] } }) => [...input.ports].reverse()),
      // a port that does not answer hangs until the machine's own 10 s timeout
      probePort: fromPromise<unknown, { port: number }>(({ input }) => {
        probed.push({ port: input.port, at: Date.now() });
        if (opts.answers?.(input.port)) return Promise.resolve({});
        return opts.refuse ? Promise.reject(new Error('refused')) : new Promise(() => {});
      }),
      messages: fromCallback(({ input, sendBack }: { input: { port: number }; sendBack: (e: any) => void }) => {
        sockets.push({ port: input.port, sendBack });
      }),
    },
  });
  const actor = createActor(machine, { input: {} }).start();
  return { actor, probed, sockets };
}

describe('companion timing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps all ten at start-up, each given exactly 10 s, then tries one shuffled candidate per backoff step (issue 10)', async () => {
    const { actor, probed } = startWithFakes();
    await vi.advanceTimersByTimeAsync(0);
    expect(probed).toEqual([{ port: COMPANION_PORTS[9], at: 0 }]);
    await vi.advanceTimersByTimeAsync(COMPANION_PROBE_TIMEOUT_MS - 1);
    expect(actor.getSnapshot().value).toEqual({ offline: 'probing' });
    expect(probed).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    // start-up sweep: the next candidate at once, without a backoff
    expect(probed).toEqual([
      { port: COMPANION_PORTS[9], at: 0 },
      { port: COMPANION_PORTS[8], at: COMPANION_PROBE_TIMEOUT_MS },
    ]);
    while (probed.length < 10) await vi.advanceTimersByTimeAsync(1000);
    expect(probed.map((p) => p.port)).toEqual([...COMPANION_PORTS].reverse());
    expect(probed.map((p) => p.at)).toEqual(COMPANION_PORTS.map((_, i) => i * COMPANION_PROBE_TIMEOUT_MS));
    await vi.advanceTimersByTimeAsync(COMPANION_PROBE_TIMEOUT_MS);
    // the sweep found nothing: wait, then one candidate per step from a new shuffle
    expect(actor.getSnapshot().value).toBe('waiting');
    const sweptAt = 10 * COMPANION_PROBE_TIMEOUT_MS;
    await vi.advanceTimersByTimeAsync(backoffMs(0) - 1);
    expect(probed).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(1);
    expect(probed[10]).toEqual({ port: COMPANION_PORTS[9], at: sweptAt + backoffMs(0) });
    let at = sweptAt + backoffMs(0);
    const expectedAt = COMPANION_PORTS.map((_, i) => {
      const t = at;
      at += COMPANION_PROBE_TIMEOUT_MS + backoffMs(i + 1);
      return t;
    });
    while (probed.length < 21) await vi.advanceTimersByTimeAsync(1000);
    expect(probed.slice(10, 20).map((p) => p.port)).toEqual([...COMPANION_PORTS].reverse());
    expect(probed.slice(10, 20).map((p) => p.at)).toEqual(expectedAt);
    // a new cycle, a new shuffle (the fake reverses the sorted candidates again)
    expect(probed[20]).toEqual({ port: COMPANION_PORTS[9], at: expectedAt[9] + COMPANION_PROBE_TIMEOUT_MS + backoffMs(10) });
    actor.stop();
  });

  it('after the start-up sweep probes at most one refused candidate per step: fifteen in the first minute rather than seventy (issue 10)', async () => {
    const { actor, probed } = startWithFakes({ refuse: true });
    await vi.advanceTimersByTimeAsync(0);
    // a companion already running is found at once, on whichever port it took
    expect(probed.map((p) => p.at)).toEqual(Array(10).fill(0));
    expect(new Set(probed.map((p) => p.port))).toEqual(new Set(COMPANION_PORTS));
    await vi.advanceTimersByTimeAsync(60_000);
    // steps at 1, 3, 7, 15, 31 and 61 s
    expect(probed.slice(10).map((p) => p.at)).toEqual([1000, 3000, 7000, 15000, 31000]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(probed).toHaveLength(16);
    actor.stop();
  });

  it('finds a companion on the last candidate of the shuffle straight after start-up', async () => {
    const last = [...COMPANION_PORTS].reverse()[9];
    // the others refuse at once, as closed ports do
    const { actor, probed, sockets } = startWithFakes({ refuse: true, answers: (port) => port === last });
    await vi.advanceTimersByTimeAsync(0);
    expect(probed).toHaveLength(10);
    expect(sockets.map((x) => x.port)).toEqual([last]);
    expect(actor.getSnapshot().value).toEqual({ online: 'found' });
    actor.stop();
  });

  it('sweeps all ten candidates at once when the operator asks (the header badge)', async () => {
    const { actor, probed } = startWithFakes({ refuse: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(probed).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(backoffMs(0));
    expect(probed).toHaveLength(11);
    actor.send({ type: 'companion.retry' });
    await vi.advanceTimersByTimeAsync(0);
    expect(probed).toHaveLength(21);
    expect(new Set(probed.slice(11).map((p) => p.port))).toEqual(new Set(COMPANION_PORTS));
    expect(actor.getSnapshot().value).toBe('waiting');
    actor.stop();
  });

  it('backs off 1/2/4/8/16/30/30 s after each lost connection, and resets after a successful one', async () => {
    const { actor, sockets } = startWithFakes({ answers: () => true });
    const waits: number[] = [];
    async function loseAndMeasure() {
      sockets.at(-1)!.sendBack({ type: 'socket.closed' });
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().value).toBe('waiting');
      const from = Date.now();
      const count = sockets.length;
      while (sockets.length === count) await vi.advanceTimersByTimeAsync(1000);
      waits.push(Date.now() - from);
      // and exactly: not a millisecond earlier
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(selectCompanionStatus(actor.getSnapshot())).toBe('found');
    for (let i = 0; i < 7; i++) await loseAndMeasure(); // never says hello: nothing resets the backoff
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);

    sockets.at(-1)!.sendBack({ type: 'socket.message', data: MSG.hello });
    await vi.advanceTimersByTimeAsync(0);
    expect(selectCompanionStatus(actor.getSnapshot())).toBe('connected');
    expect(selectCanUseCompanion(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context.attempt).toBe(0);
    waits.length = 0;
    await loseAndMeasure();
    expect(waits).toEqual([1000]);
    actor.stop();
  });

  it('waits exactly backoffMs(attempt), not a millisecond less', async () => {
    const { actor, sockets } = startWithFakes({ answers: () => true });
    await vi.advanceTimersByTimeAsync(0);
    for (let attempt = 0; attempt < 7; attempt++) {
      const count = sockets.length;
      sockets.at(-1)!.sendBack({ type: 'socket.closed' });
      await vi.advanceTimersByTimeAsync(backoffMs(attempt) - 1);
      expect(sockets).toHaveLength(count);
      await vi.advanceTimersByTimeAsync(1);
      expect(sockets).toHaveLength(count + 1);
    }
    actor.stop();
  });
});

describe('companion replies', () => {
  function connected() {
    const sent: CompanionSocketCommand[] = [];
    let sendBack!: (e: any) => void;
    const machine = companionMachine.provide({
      actors: {
        shufflePorts: fromPromise(async () => PORTS),
        probePort: fromPromise<unknown, { port: number }>(async () => ({})),
        messages: fromCallback(({ sendBack: sb, receive }: any) => {
          sendBack = sb;
          receive((e: CompanionSocketCommand) => sent.push(e));
        }),
      },
    });
    const actor = createActor(machine, { input: { ports: PORTS } });
    const emitted: CompanionEmitted[] = [];
    actor.on('*', (e) => emitted.push(e as CompanionEmitted));
    actor.start();
    return { actor, sent, emitted, reply: (data: unknown) => sendBack({ type: 'socket.message', data }) };
  }

  it('captures a photo: the command carries a made-up request id and the photo comes back as a fact', async () => {
    const { actor, sent, emitted, reply } = connected();
    await flush();
    reply(MSG.hello);
    actor.send({ type: 'companion.capturePhoto', purpose: 'visitor' });
    expect(sent).toEqual([{ type: 'socket.send', message: { type: 'photo.capture', requestId: 'req-1', purpose: 'visitor' } }]);
    reply(json({ type: 'photo.captured', requestId: 'req-1', file: PNG }));
    expect(emitted.at(-1)).toEqual({ type: 'companion.photoCaptured', requestId: 'req-1', purpose: 'visitor', file: PNG });
    expect(actor.getSnapshot().context.pending).toEqual({});
    actor.stop();
  });

  it('rejects an oversize reply with a clear error and stays connected', async () => {
    const { actor, emitted, reply } = connected();
    await flush();
    reply(MSG.hello);
    reply('x'.repeat(COMPANION_MAX_MESSAGE_CHARS + 1));
    expect(emitted.at(-1)).toEqual({
      type: 'companion.failed',
      message: expect.stringContaining('too large'),
      sentence: expect.objectContaining({ code: 'companion.unreadable' }),
    });
    expect(selectCompanionStatus(actor.getSnapshot())).toBe('connected');
    actor.stop();
  });

  it('tells every waiting request that no answer will come when the connection drops', async () => {
    const { actor, emitted, reply } = connected();
    await flush();
    reply(MSG.hello);
    actor.send({ type: 'companion.capturePhoto', purpose: 'identity', requestId: 'a' });
    actor.send({ type: 'companion.printBadge', visitor: { name: 'V' }, requestId: 'b' });
    actor.send({ type: 'socket.closed' });
    expect(
      emitted
        .filter((e) => e.type === 'companion.failed')
        .map((e) => (e as any).requestId)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(actor.getSnapshot().context.pending).toEqual({});
    actor.stop();
  });

  it('trusts the shuffle only as a permutation of the candidates', () => {
    expect(portOrder([3, 3, 9, 1], [1, 2, 3])).toEqual([3, 1, 2]);
    expect(portOrder('nonsense', [1, 2])).toEqual([1, 2]);
  });
});
