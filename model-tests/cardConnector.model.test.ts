// Model-based tests of the card connector: every reachable state and transition of the graph, replayed on a
// real actor with a fake socket and a SimulatedClock; then the numbers (500 ms between the three ports, in
// order) with vitest's fake timers; then the version rule and hostile frames.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestModel } from '@xstate/graph';
import { SimulatedClock, createActor, fromCallback } from 'xstate';
import {
  CONNECTOR_DELAY_MS,
  CONNECTOR_MAX_MESSAGE_CHARS,
  CONNECTOR_PORTS,
  CONNECTOR_VERSION,
  DEVICE_MESSAGES,
  MAX_CACHED_VIEWS,
  type MyKad,
} from '../contract';
import { cardConnectorMachine, type CardConnectorEmitted, type CardConnectorSnapshot, type ConnectorSocketCommand } from '../machines/cardConnector';
import { selectCanReadCard, selectConnectorStatus, selectConnectorStatusText, selectReaderState } from '../machines/cardConnector.selectors';
import { invariants } from '../machines/cardConnector.invariants';
import { edgePaths, onDemand, expectInvariants, expectOracle, flush, type EdgePath, inStep } from './harness';

const CARD: MyKad = {
  name: 'SITI BINTI AHMAD',
  idNumber: '900101-14-5678',
  dateOfBirth: '1990-01-01',
  address: '1 Jalan Ampang, Kuala Lumpur',
  gender: 'F',
  nationality: 'MYS',
  photo: null,
};
const frame = (type: string, data?: unknown, version: string = CONNECTOR_VERSION) => JSON.stringify({ type, version, data });
const FRAMES: Record<string, string> = {
  connecting: frame('connecting'),
  connected: frame('connected'),
  disconnected: frame('disconnected'),
  versionValid: frame('version_valid'),
  versionInvalid: frame('invalid_version'),
  readerConnected: frame('reader_connected'),
  readerDisconnected: frame('reader_disconnected'),
  cardInserted: frame('card_inserted'),
  cardRemoved: frame('card_removed'),
  reading: frame('reading_data'),
  data: frame('data_received', CARD),
  badData: frame('data_received', { name: 'X' }),
  oldVersion: frame('card_inserted', null, 'v0.9.0'),
  unknownType: frame('self_destruct'),
  garbage: '{{{',
};
const messageEvents = Object.values(FRAMES).map((data) => ({ type: 'socket.message', data }));
const commands = [
  { type: 'cardConnector.connect' },
  { type: 'cardConnector.retry' },
  { type: 'cardConnector.disconnect' },
  { type: 'cardConnector.read' },
  // what a form says its reads filled (ReadCardPanel), kept here for it
  { type: 'cardConnector.filled', form: 'f1', values: { firstName: 'Ada', idNumber: '900101-14-5678' } },
  { type: 'cardConnector.unfilled', form: 'f1', field: 'firstName' },
];

function eventsFor(s: CardConnectorSnapshot): any[] {
  if (s.matches({ attempt: 'opening' }))
    return [...commands, { type: 'socket.opened' }, { type: 'socket.closed' }, { type: 'xstate.error.actor.socket', error: new Error('bad url') }];
  if (s.matches({ attempt: 'open' })) return [...commands, ...messageEvents, { type: 'socket.closed' }];
  if (s.matches('pausing')) return [...commands, { type: 'xstate.after.connectorDelay.cardConnector.pausing' }];
  return commands;
}

// link and versionConfirmed are plain flags: every transition that sets them is still taken, from every state
const serialize = (s: CardConnectorSnapshot) => JSON.stringify([s.value, s.context.index, s.context.card !== null]);
const model = new TestModel(cardConnectorMachine as any, { events: eventsFor as any, serializeState: serialize as any, limit: 20_000, input: {} } as any);
const paths = onDemand(() => edgePaths(model, cardConnectorMachine, serialize, [], {}));

/** Independent rules: what a step emits and sends. */
function expected(before: CardConnectorSnapshot, after: CardConnectorSnapshot, event: any) {
  const emitted: string[] = [];
  const sent: string[] = [];
  const reader = selectReaderState(before);
  const frameName = event.type === 'socket.message' ? Object.entries(FRAMES).find(([, v]) => v === event.data)![0] : null;
  if (frameName === 'oldVersion') sent.push('invalid_version');
  if (event.type === 'cardConnector.read') {
    if (reader === 'cardInserted' || reader === 'cardRead') sent.push('read_card');
    else if (reader === 'noReader' || reader === 'readerReady') emitted.push('cardConnector.failed');
  }
  if (frameName === 'data' && (reader === 'cardInserted' || reader === 'reading' || reader === 'cardRead')) emitted.push('card.read');
  const outOfOrder = (reader === 'noReader' || reader === 'readerReady') && ['cardRemoved', 'reading', 'data'].includes(frameName!);
  if (['badData', 'unknownType', 'garbage'].includes(frameName!) || outOfOrder) emitted.push('cardConnector.failed');
  const failedStates = ['serviceMissing', 'closed', 'outdated'];
  if (failedStates.some((f) => after.matches(f as any)) && !after.matches(before.value as any)) emitted.push('cardConnector.failed');
  return { emitted: emitted.sort(), sent };
}

async function run({ path }: EdgePath<typeof cardConnectorMachine>) {
  const clock = new SimulatedClock();
  const sent: ConnectorSocketCommand[] = [];
  const opened: number[] = [];
  const socket = fromCallback<ConnectorSocketCommand, { port: number }>(({ input, receive }) => {
    opened.push(input.port);
    receive((e) => sent.push(e));
  });
  const actor = createActor(cardConnectorMachine.provide({ actors: { socket } }), { input: {}, clock });
  const emitted: CardConnectorEmitted[] = [];
  actor.on('*', (e) => emitted.push(e as CardConnectorEmitted));
  actor.start();
  let step = 0;
  let before = actor.getSnapshot();
  const send = async ({ event }: { event: any }) => {
    before = actor.getSnapshot();
    actor.send(event);
    await flush();
  };
  const executors: Record<string, (s: { event: any }) => Promise<void>> = {};
  for (const t of ['socket.opened', 'socket.closed', 'socket.message', 'xstate.error.actor.socket', ...commands.map((c) => c.type)]) executors[t] = send;
  executors['xstate.after.connectorDelay.cardConnector.pausing'] = async () => {
    before = actor.getSnapshot();
    clock.increment(CONNECTOR_DELAY_MS);
    await flush();
  };
  await model.testPath(path as any, {
    states: {
      '*': ((want: CardConnectorSnapshot) => {
        const s = actor.getSnapshot();
        inStep(s, want); // the oracle is below, not the machine compared with itself
        expectInvariants(s, invariants);
        if (s.matches('attempt')) expect(opened.at(-1)).toBe(CONNECTOR_PORTS[s.context.index]);
        if (step > 0) {
          const w = expected(before, s, path.steps[step].event);
          expect(
            emitted
              .splice(0)
              .map((e) => e.type)
              .sort(),
          ).toEqual(w.emitted);
          expect(sent.splice(0).map((c) => c.message.type)).toEqual(w.sent);
        }
        step++;
      }) as (s: unknown) => void,
    },
    events: executors,
  });
  actor.stop();
}

describe('card connector machine model', () => {
  it('reaches every state: idle, each port, pausing, every reader state, and the three failures', () => {
    const values = new Set(paths().map((p) => JSON.stringify(p.path.state.value)));
    for (const v of ['idle', 'pausing', 'serviceMissing', 'closed', 'outdated']) expect(values).toContain(JSON.stringify(v));
    for (const r of ['noReader', 'readerReady', 'cardInserted', 'reading', 'cardRead']) expect(values).toContain(JSON.stringify({ attempt: { open: r } }));
    expect(new Set(paths().map((p) => p.path.state.context.index))).toEqual(new Set([0, 1, 2]));
  });
  it('keeps the invariants of its states (cardConnector.invariants.ts) and the rules of §4, §5 and §8 at every step of the generated paths', () => {
    const attempt = (s: CardConnectorSnapshot) => s.matches('attempt');
    expectOracle(
      paths(),
      {
        'a port that does not open is followed by the next one after a pause, the last by the guide message (§4)': ({ before, event, after }) =>
          before.matches({ attempt: 'opening' }) && (event.type === 'socket.closed' || event.type === 'xstate.error.actor.socket')
            ? before.context.index + 1 < before.context.ports.length
              ? after.matches('pausing') && after.context.index === before.context.index + 1
              : after.matches('serviceMissing')
            : undefined,
        'a pause ends in an attempt on the port chosen (§4)': ({ before, event, after }) =>
          before.matches('pausing') && event.type.startsWith('xstate.after.')
            ? after.matches({ attempt: 'opening' }) && after.context.index === before.context.index
            : undefined,
        'Try again starts over from the first port, whatever was shown': ({ event, after }) =>
          event.type === 'cardConnector.retry' ? after.matches({ attempt: 'opening' }) && after.context.index === 0 : undefined,
        "what a form's reads filled is kept for that form, whatever the connection does": ({ before, event, after }) =>
          event.type === 'cardConnector.filled'
            ? after.context.filled.f1?.firstName === 'Ada' && after.context.filled.f1?.idNumber === '900101-14-5678'
            : event.type === 'cardConnector.unfilled'
              ? !('firstName' in (after.context.filled.f1 ?? {})) && after.context.filled.f1?.idNumber === before.context.filled.f1?.idNumber
              : JSON.stringify(after.context.filled) === JSON.stringify(before.context.filled),
        'disconnect leaves the connector alone from anywhere': ({ event, after }) =>
          event.type === 'cardConnector.disconnect' ? after.matches('idle') : undefined,
        'a message of another version than v1.0.0 ends in the outdated message (§5)': ({ before, event, after }) =>
          before.matches({ attempt: 'open' }) && event.type === 'socket.message' && event.data === FRAMES.oldVersion ? after.matches('outdated') : undefined,
        'a connection that closes shows Connect failed (§8)': ({ before, event, after }) =>
          before.matches({ attempt: 'open' }) && event.type === 'socket.closed' ? after.matches('closed') : undefined,
        'a frame the console cannot read changes neither the reader state nor the card': ({ before, event, after }) =>
          attempt(before) && event.type === 'socket.message' && [FRAMES.garbage, FRAMES.unknownType, FRAMES.badData].includes(event.data)
            ? JSON.stringify(after.value) === JSON.stringify(before.value) && after.context.card === before.context.card
            : undefined,
      },
      12,
      invariants,
    );
  });
  // every path on a real actor with its timers: about 10 s on a quiet machine, past 30 s at load 15-18 (a check CI)
  it(`opens the port of its attempt and emits and sends what the independent rules say (expected()), on the real actor, along every generated path`, async () => {
    for (const p of paths()) await run(p);
  }, 120_000);
});

// ---------- the numbers and the rules ----------
function startWithFakes(open: (port: number) => boolean) {
  const tries: Array<{ port: number; at: number }> = [];
  const sent: ConnectorSocketCommand[] = [];
  let sendBack!: (e: any) => void;
  const socket = fromCallback<ConnectorSocketCommand, { port: number }>(({ input, sendBack: sb, receive }) => {
    tries.push({ port: input.port, at: Date.now() });
    sendBack = sb;
    receive((e) => sent.push(e));
    // a refused port closes at once, as a browser WebSocket does
    queueMicrotask(() => sb(open(input.port) ? { type: 'socket.opened' } : { type: 'socket.closed' }));
  });
  const actor = createActor(cardConnectorMachine.provide({ actors: { socket } }), { input: {} }).start();
  return { actor, tries, sent, frame: (data: string) => sendBack({ type: 'socket.message', data }) };
}

describe('card connector timing and messages', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tries 51379, 24680, 18365 in order, 500 ms apart, then shows the guide message', async () => {
    const { actor, tries } = startWithFakes(() => false);
    actor.send({ type: 'cardConnector.connect' });
    await vi.advanceTimersByTimeAsync(0);
    expect(tries).toEqual([{ port: 51379, at: 0 }]);
    await vi.advanceTimersByTimeAsync(CONNECTOR_DELAY_MS - 1);
    expect(tries).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(tries).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(CONNECTOR_DELAY_MS);
    expect(tries).toEqual([
      { port: 51379, at: 0 },
      { port: 24680, at: 500 },
      { port: 18365, at: 1000 },
    ]);
    expect(actor.getSnapshot().value).toBe('serviceMissing');
    expect(selectConnectorStatusText(actor.getSnapshot())).toBe(DEVICE_MESSAGES.connectorMissing);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(tries).toHaveLength(3); // no more tries until the operator asks
    actor.send({ type: 'cardConnector.retry' });
    await vi.advanceTimersByTimeAsync(0);
    expect(tries.at(-1)!.port).toBe(51379);
    actor.stop();
  });

  it('stops at the first port that opens, and shows Connect failed when it closes', async () => {
    const { actor, tries } = startWithFakes((p) => p === 24680);
    actor.send({ type: 'cardConnector.connect' });
    await vi.advanceTimersByTimeAsync(CONNECTOR_DELAY_MS);
    expect(tries.map((t) => t.port)).toEqual([51379, 24680]);
    expect(selectConnectorStatus(actor.getSnapshot())).toBe('connected');
    actor.send({ type: 'socket.closed' });
    expect(selectConnectorStatusText(actor.getSnapshot())).toBe('Connect failed');
    actor.stop();
  });

  it('answers a connector of another version with invalid_version and shows the outdated message', async () => {
    const { actor, sent, frame: push } = startWithFakes(() => true);
    actor.send({ type: 'cardConnector.connect' });
    await vi.advanceTimersByTimeAsync(0);
    push(JSON.stringify({ type: 'connected', version: 'v0.9.3', data: null }));
    expect(sent).toEqual([{ type: 'socket.send', message: { type: 'invalid_version', version: CONNECTOR_VERSION, data: { received: 'v0.9.3' } } }]);
    expect(actor.getSnapshot().value).toBe('outdated');
    expect(selectConnectorStatusText(actor.getSnapshot())).toBe('The reader connector is outdated and must be upgraded to v1.0.0.');
    actor.stop();
  });

  it('keeps what reads filled for as many forms as views are kept alive, the form filled longest ago let go first', () => {
    const actor = createActor(cardConnectorMachine, { input: {} }).start();
    for (let i = 1; i <= MAX_CACHED_VIEWS + 1; i++) actor.send({ type: 'cardConnector.filled', form: `f${i}`, values: { firstName: `N${i}` } });
    // f2 filled again: now the most recent, so f3 is the oldest
    actor.send({ type: 'cardConnector.filled', form: 'f2', values: { lastName: 'Ong' } });
    actor.send({ type: 'cardConnector.filled', form: 'f12', values: { firstName: 'N12' } });
    const filled = actor.getSnapshot().context.filled;
    expect(Object.keys(filled)).toHaveLength(MAX_CACHED_VIEWS);
    expect(filled.f1).toBeUndefined();
    expect(filled.f3).toBeUndefined();
    expect(filled.f2).toEqual({ firstName: 'N2', lastName: 'Ong' });
    expect(filled.f12).toEqual({ firstName: 'N12' });
    actor.stop();
  });
  it('reads a card: inserted, read on request, data validated into context and told as card.read', async () => {
    const { actor, sent, frame: push } = startWithFakes(() => true);
    const reads: unknown[] = [];
    actor.on('card.read', (e) => reads.push(e.card));
    actor.send({ type: 'cardConnector.connect' });
    await vi.advanceTimersByTimeAsync(0);
    for (const f of [FRAMES.connected, FRAMES.versionValid, FRAMES.readerConnected, FRAMES.cardInserted]) push(f);
    expect(selectCanReadCard(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'cardConnector.read' });
    expect(sent.at(-1)!.message).toEqual({ type: 'read_card', version: CONNECTOR_VERSION, data: null });
    push(FRAMES.reading);
    expect(selectReaderState(actor.getSnapshot())).toBe('reading');
    push(FRAMES.data);
    expect(actor.getSnapshot().context.card).toEqual(CARD);
    expect(reads).toEqual([CARD]);
    push('x'.repeat(CONNECTOR_MAX_MESSAGE_CHARS + 1));
    expect(actor.getSnapshot().context.error).toMatch(/too large/);
    expect(selectReaderState(actor.getSnapshot())).toBe('cardRead');
    actor.stop();
  });
});
