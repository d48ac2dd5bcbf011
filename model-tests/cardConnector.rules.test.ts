// The local card-reader connector's rules (machines/cardConnector.ts, §4, §5, §8), its selectors and its invariants,
// written down apart from the machine with values worked out by hand (the mutation run of 2026-12-03, docs/TESTING.md
// "Mutation score"): the ports in order with their pause, each connection message as what the panel says, a card's
// life from inserted to read, the words of every refusal and of every failure, a connector of another version, what a
// retry or a disconnect forgets (and what it keeps: what forms were filled), and the forms kept. Small cases on the real
// actor with a fake socket and a simulated clock (the model test's graph is too slow to build again for each mutant).
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromCallback } from 'xstate';
import { DEVICE_MESSAGES, type MyKad } from '../contract';
import { cardConnectorMachine, factOf, type CardConnectorEmitted, type ConnectorSocketCommand } from '../machines/cardConnector';
import {
  selectCanReadCard,
  selectCard,
  selectConnectorError,
  selectConnectorIsBusy,
  selectConnectorNeedsRetry,
  selectConnectorPort,
  selectConnectorStatus,
  selectConnectorStatusText,
  selectReaderState,
} from '../machines/cardConnector.selectors';
import { invariants } from '../machines/cardConnector.invariants';
import { flush } from './harness';

const V = 'v1.0.0';
const CARD: MyKad = { name: 'SITI BINTI AHMAD', idNumber: '900101-14-5678', dateOfBirth: '1990-01-01', address: '1 Jalan Ampang' };
const OTHER: MyKad = { name: 'TAN AH KOW', idNumber: '850505-10-1234', dateOfBirth: '1985-05-05', address: '2 Jalan Tun Razak' };
const frame = (type: string, data?: unknown, version = V) => JSON.stringify({ type, version, data });

function connector(ports: number[] | 'none' = [7001, 7002, 7003]) {
  const clock = new SimulatedClock();
  const opened: number[] = [];
  const sent: unknown[] = [];
  let fail = false;
  const socket = fromCallback<ConnectorSocketCommand, { port: number }>(({ input, receive }) => {
    opened.push(input.port);
    if (fail) throw new Error('cannot create');
    receive((e) => sent.push(e.message));
  });
  const machine = cardConnectorMachine.provide({ actors: { socket } });
  const actor = createActor(machine, { input: ports === 'none' ? undefined : { ports }, clock });
  const heard: CardConnectorEmitted[] = [];
  actor.on('*', (e) => heard.push(e as CardConnectorEmitted));
  actor.start();
  const s = () => actor.getSnapshot();
  const send = (e: object) => actor.send(e as never);
  const say = (type: string, data?: unknown, version?: string) => send({ type: 'socket.message', data: frame(type, data, version) });
  return { clock, opened, sent, actor, heard, s, send, say, failSockets: () => (fail = true) };
}

/** Open on the first port, a reader connected. */
function open() {
  const c = connector();
  c.send({ type: 'cardConnector.connect' });
  c.send({ type: 'socket.opened' });
  c.say('reader_connected');
  return c;
}

describe('card connector: the ports, worked out by hand', () => {
  it('tries the ports in order, 500 ms apart, keeps the one that opens, and shows the guide after the last', async () => {
    const { clock, opened, s, send, heard } = connector();
    expect(selectConnectorStatus(s())).toBe('idle');
    expect(selectConnectorStatusText(s())).toBeNull();
    send({ type: 'cardConnector.connect' });
    expect(opened).toEqual([7001]);
    expect(selectConnectorStatus(s())).toBe('searching');
    expect(selectConnectorStatusText(s())).toBe('Looking for the card reader service…');
    expect(selectConnectorIsBusy(s())).toBe(true);
    send({ type: 'socket.closed' });
    expect(s().value).toBe('pausing');
    expect(s().context.index).toBe(1);
    expect(selectConnectorIsBusy(s())).toBe(true);
    expect(selectConnectorStatus(s())).toBe('searching');
    clock.increment(499);
    await flush();
    expect(opened).toEqual([7001]);
    clock.increment(1);
    await flush();
    expect(opened).toEqual([7001, 7002]);
    send({ type: 'socket.closed' });
    clock.increment(500);
    await flush();
    expect(opened).toEqual([7001, 7002, 7003]);
    send({ type: 'socket.closed' });
    expect(s().value).toBe('serviceMissing');
    expect(s().context).toMatchObject({ index: 2, port: null, message: DEVICE_MESSAGES.connectorMissing });
    expect(heard).toEqual([{ type: 'cardConnector.failed', message: DEVICE_MESSAGES.connectorMissing }]);
    expect(selectConnectorStatus(s())).toBe('serviceMissing');
    expect(selectConnectorStatusText(s())).toBe(DEVICE_MESSAGES.connectorMissing);
    expect(selectConnectorNeedsRetry(s())).toBe(true);
    expect(selectConnectorIsBusy(s())).toBe(false);
    // try again: from the first port, the message gone
    send({ type: 'cardConnector.retry' });
    expect(opened.at(-1)).toBe(7001);
    expect(s().context).toMatchObject({ index: 0, message: null });
    send({ type: 'socket.closed' });
    clock.increment(500);
    await flush();
    send({ type: 'socket.opened' });
    expect(selectConnectorPort(s())).toBe(7002);
    expect(selectConnectorStatus(s())).toBe('connected');
    expect(selectConnectorIsBusy(s())).toBe(false);
    expect(selectConnectorNeedsRetry(s())).toBe(false);
  });

  it('a socket that cannot be created counts as a port that does not answer', async () => {
    const { clock, opened, s, send, failSockets } = connector([7001, 7002]);
    failSockets();
    send({ type: 'cardConnector.connect' });
    await flush();
    expect(s().value).toBe('pausing');
    clock.increment(500);
    await flush();
    expect(opened).toEqual([7001, 7002]);
    expect(s().value).toBe('serviceMissing');
  });

  it("without ports given it tries the contract's three", () => {
    const { opened, send } = connector('none');
    send({ type: 'cardConnector.connect' });
    expect(opened).toEqual([51379]);
  });

  it('Connect failed when an open connection closes; a disconnect forgets everything but what forms were filled', () => {
    const c = open();
    c.send({ type: 'cardConnector.filled', form: 'f1', values: { firstName: 'Siti' } });
    c.say('card_inserted');
    c.say('data_received', CARD);
    c.send({ type: 'socket.closed' });
    expect(c.s().value).toBe('closed');
    expect(c.s().context).toMatchObject({ message: 'Connect failed', link: null });
    expect(c.heard.at(-1)).toEqual({ type: 'cardConnector.failed', message: 'Connect failed' });
    expect(selectConnectorStatusText(c.s())).toBe('Connect failed');
    expect(selectConnectorStatus(c.s())).toBe('closed');
    expect(selectConnectorNeedsRetry(c.s())).toBe(true);
    c.send({ type: 'cardConnector.disconnect' });
    expect(c.s().value).toBe('idle');
    expect(c.s().context).toMatchObject({
      index: 0,
      port: null,
      link: null,
      versionConfirmed: false,
      card: null,
      message: null,
      error: null,
      announcedVersion: null,
      filled: { f1: { firstName: 'Siti' } },
    });
  });
});

describe('card connector: what the connector says, worked out by hand', () => {
  it('each valid message is the fact it states', () => {
    const fact = (type: string, data?: unknown) => factOf({ ok: true, message: { type, version: V, data } } as never);
    expect(fact('connecting')).toEqual({ type: 'connector.connecting' });
    expect(fact('connected')).toEqual({ type: 'connector.connected' });
    expect(fact('disconnected')).toEqual({ type: 'connector.disconnected' });
    expect(fact('version_valid')).toEqual({ type: 'version.accepted' });
    expect(factOf({ ok: true, message: { type: 'invalid_version', version: 'v2' } } as never)).toEqual({ type: 'version.rejected', version: 'v2' });
    expect(fact('reader_connected')).toEqual({ type: 'reader.connected' });
    expect(fact('reader_disconnected')).toEqual({ type: 'reader.disconnected' });
    expect(fact('card_inserted')).toEqual({ type: 'card.inserted' });
    expect(fact('card_removed')).toEqual({ type: 'card.removed' });
    expect(fact('reading_data')).toEqual({ type: 'card.readStarted' });
    expect(fact('data_received', CARD)).toEqual({ type: 'card.dataReceived', card: CARD });
  });

  it("the connector's own link state, its version confirmed, the reader gone", () => {
    const c = open();
    expect(c.s().context).toMatchObject({ port: 7001, link: null, versionConfirmed: false });
    c.say('connecting');
    expect(c.s().context.link).toBe('connecting');
    c.say('connected');
    expect(c.s().context.link).toBe('connected');
    c.say('version_valid');
    expect(c.s().context.versionConfirmed).toBe(true);
    expect(selectReaderState(c.s())).toBe('readerReady');
    c.say('disconnected');
    expect(c.s().context.link).toBe('disconnected');
    expect(selectReaderState(c.s())).toBe('noReader');
    c.say('reader_connected');
    c.say('reader_disconnected');
    expect(selectReaderState(c.s())).toBe('noReader');
    expect(selectConnectorStatusText(c.s())).toBe('Connect a card reader to this computer.');
  });

  it("a card's life: inserted, read on request, read again, another inserted, removed; the panel's words at each step", () => {
    const c = open();
    expect(selectConnectorStatusText(c.s())).toBe('Insert an identity card into the reader.');
    expect(selectCanReadCard(c.s())).toBe(false);
    c.say('card_inserted');
    expect(selectReaderState(c.s())).toBe('cardInserted');
    expect(selectConnectorStatusText(c.s())).toBe('Card inserted. Press Read card.');
    expect(selectCanReadCard(c.s())).toBe(true);
    c.send({ type: 'cardConnector.read' });
    expect(c.sent).toEqual([{ type: 'read_card', version: V, data: null }]);
    c.say('reading_data');
    expect(selectReaderState(c.s())).toBe('reading');
    expect(selectConnectorStatusText(c.s())).toBe('Reading the card…');
    expect(selectConnectorIsBusy(c.s())).toBe(true);
    expect(selectCanReadCard(c.s())).toBe(false);
    // asking again while it reads sends nothing more
    c.send({ type: 'cardConnector.read' });
    c.say('reading_data');
    expect(c.sent).toHaveLength(1);
    c.say('data_received', CARD);
    expect(selectCard(c.s())).toEqual(CARD);
    expect(c.heard).toEqual([{ type: 'card.read', card: CARD }]);
    expect(selectConnectorStatusText(c.s())).toBe('Card read.');
    expect(selectCanReadCard(c.s())).toBe(true);
    // the same card read again is told again; a new one replaces it
    c.say('data_received', OTHER);
    expect(selectCard(c.s())).toEqual(OTHER);
    expect(c.heard.at(-1)).toEqual({ type: 'card.read', card: OTHER });
    c.send({ type: 'cardConnector.read' });
    expect(c.sent).toHaveLength(2);
    c.say('reading_data');
    expect(selectReaderState(c.s())).toBe('reading');
    c.say('card_removed');
    expect(selectReaderState(c.s())).toBe('readerReady');
    // the card read stays until another goes in
    expect(selectCard(c.s())).toEqual(OTHER);
    c.say('card_inserted');
    expect(selectCard(c.s())).toBeNull();
    // some connectors skip reading_data
    c.say('data_received', CARD);
    expect(selectReaderState(c.s())).toBe('cardRead');
    c.say('card_inserted');
    expect(selectReaderState(c.s())).toBe('cardInserted');
    expect(selectCard(c.s())).toBeNull();
    c.say('card_removed');
    expect(selectReaderState(c.s())).toBe('readerReady');
  });

  it('a card without the reader announced implies one; reads asked too early and card events out of order are refused in words', () => {
    const c = connector();
    c.send({ type: 'cardConnector.connect' });
    c.send({ type: 'socket.opened' });
    c.send({ type: 'cardConnector.read' });
    expect(c.heard.at(-1)).toEqual({ type: 'cardConnector.failed', message: 'Connect a card reader first' });
    expect(selectConnectorError(c.s())).toBe('Connect a card reader first');
    c.say('reader_connected');
    c.send({ type: 'cardConnector.read' });
    expect(c.heard.at(-1)).toEqual({ type: 'cardConnector.failed', message: 'Insert a card into the reader first' });
    for (const [type, what] of [
      ['card_removed', 'card_removed'],
      ['reading_data', 'reading_data'],
      ['data_received', 'data_received'],
    ]) {
      c.say(type, type === 'data_received' ? CARD : undefined);
      expect(c.heard.at(-1)).toEqual({ type: 'cardConnector.failed', message: `Card connector: '${what}' arrived out of order and was ignored` });
    }
    expect(selectCard(c.s())).toBeNull();
    expect(c.sent).toEqual([]);
    // a read asked for clears the last problem; a card read clears it too
    c.say('card_inserted');
    c.send({ type: 'cardConnector.read' });
    expect(selectConnectorError(c.s())).toBeNull();
    const d = connector();
    d.send({ type: 'cardConnector.connect' });
    d.send({ type: 'socket.opened' });
    d.say('card_inserted');
    expect(selectReaderState(d.s())).toBe('cardInserted');
    d.send({ type: 'cardConnector.read' });
    d.send({ type: 'socket.message', data: '{{{' });
    expect(selectConnectorError(d.s())).toBe('Card connector: not JSON');
    d.say('data_received', CARD);
    expect(selectConnectorError(d.s())).toBeNull();
  });

  it('frames it cannot use are reported with their reason and change nothing else', () => {
    const c = open();
    c.send({ type: 'socket.message', data: '{{{' });
    expect(c.heard.at(-1)).toEqual({ type: 'cardConnector.failed', message: 'Card connector: not JSON' });
    c.say('self_destruct');
    expect(c.heard.at(-1)).toEqual({ type: 'cardConnector.failed', message: "Card connector: unknown message 'self_destruct'" });
    expect(c.s().context.error).toBe("Card connector: unknown message 'self_destruct'");
    c.say('card_inserted');
    c.say('data_received', { name: 'X' });
    expect(c.heard.at(-1)?.type).toBe('cardConnector.failed');
    expect((c.heard.at(-1) as { message: string }).message).toMatch(/^Card connector: invalid card data \(/);
    expect(selectReaderState(c.s())).toBe('cardInserted');
    expect(selectCard(c.s())).toBeNull();
  });

  it('a connector of another version is answered with invalid_version naming its version, and the outdated message shows', () => {
    const c = open();
    c.say('card_inserted', null, 'v0.9.3');
    expect(c.sent).toEqual([{ type: 'invalid_version', version: V, data: { received: 'v0.9.3' } }]);
    expect(c.s().value).toBe('outdated');
    expect(c.s().context).toMatchObject({ announcedVersion: 'v0.9.3', link: null, message: DEVICE_MESSAGES.connectorOutdated });
    expect(c.heard.at(-1)).toEqual({ type: 'cardConnector.failed', message: DEVICE_MESSAGES.connectorOutdated });
    expect(selectConnectorStatus(c.s())).toBe('outdated');
    expect(selectConnectorStatusText(c.s())).toBe(DEVICE_MESSAGES.connectorOutdated);
    expect(selectConnectorNeedsRetry(c.s())).toBe(true);
    // the connector itself says we are the wrong version: outdated too, with the version it names
    const d = open();
    d.say('connected');
    d.say('invalid_version', undefined, V);
    expect(d.s().value).toBe('outdated');
    expect(d.s().context).toMatchObject({ announcedVersion: V, link: null });
    expect(d.sent).toEqual([]);
  });

  it('what reads filled: text values only, merged per form, a field the operator replaced let go, at most ten forms (the oldest first out)', () => {
    const c = connector();
    c.send({ type: 'cardConnector.filled', form: 'a', values: { firstName: 'Siti', age: 34, photo: null } });
    expect(c.s().context.filled).toEqual({ a: { firstName: 'Siti' } });
    c.send({ type: 'cardConnector.filled', form: 'a', values: { lastName: 'Ahmad' } });
    expect(c.s().context.filled).toEqual({ a: { firstName: 'Siti', lastName: 'Ahmad' } });
    c.send({ type: 'cardConnector.filled', form: 'b' });
    expect(c.s().context.filled).toEqual({ a: { firstName: 'Siti', lastName: 'Ahmad' }, b: {} });
    c.send({ type: 'cardConnector.unfilled', form: 'a', field: 'firstName' });
    expect(c.s().context.filled.a).toEqual({ lastName: 'Ahmad' });
    c.send({ type: 'cardConnector.unfilled', form: 'zz', field: 'firstName' });
    expect(Object.keys(c.s().context.filled)).toEqual(['a', 'b']);
    for (let i = 1; i <= 9; i++) c.send({ type: 'cardConnector.filled', form: `f${i}`, values: { n: String(i) } });
    // eleven forms filled: 'a' (filled longest ago) goes
    expect(Object.keys(c.s().context.filled)).toEqual(['b', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9']);
    // filling 'b' again makes it the newest; then one more form lets f1 go, not b
    c.send({ type: 'cardConnector.filled', form: 'b', values: { x: 'y' } });
    c.send({ type: 'cardConnector.filled', form: 'g', values: {} });
    expect(Object.keys(c.s().context.filled)).toEqual(['f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9', 'b', 'g']);
    expect(c.s().context.filled.b).toEqual({ x: 'y' });
  });
});

describe('card connector invariants, each against a state that breaks it', () => {
  type O = { context?: Record<string, unknown>; children?: string[]; tags?: string[]; state?: string };
  const held = (o: O = {}) =>
    ({
      context: {
        ports: [1, 2, 3],
        index: 0,
        port: null,
        link: null,
        card: null,
        message: null,
        error: null,
        announcedVersion: null,
        filled: {},
        ...o.context,
      },
      children: Object.fromEntries((o.children ?? []).map((c) => [c, {}])),
      hasTag: (t: string) => (o.tags ?? []).includes(t),
      matches: (v: never) => v === o.state,
    }) as never;
  const I = invariants;
  it('in every state', () => {
    const port = I['']['the port tried is one of the ports, taken in order (index within the list)'];
    expect(port(held())).toBe(true);
    expect(port(held({ context: { index: 2 } }))).toBe(true);
    expect(port(held({ context: { index: 3 } }))).toBe(false);
    expect(port(held({ context: { index: -1 } }))).toBe(false);
    expect(port(held({ context: { index: 0.5 } }))).toBe(false);
    expect(port(held({ context: { ports: [] } }))).toBe(false);
    const msg = I['']['the panel shows a message of §8 exactly in a failed state (none while idle, trying or connected)'];
    for (const state of ['serviceMissing', 'closed', 'outdated']) {
      expect(msg(held({ state, context: { message: 'x' } }))).toBe(true);
      expect(msg(held({ state }))).toBe(false);
    }
    expect(msg(held({ state: 'idle' }))).toBe(true);
    expect(msg(held({ state: 'idle', context: { message: 'x' } }))).toBe(false);
    const one = I['']['at most the one socket of the attempt runs'];
    expect(one(held())).toBe(true);
    expect(one(held({ children: ['socket'] }))).toBe(true);
    expect(one(held({ children: ['other'] }))).toBe(false);
    expect(one(held({ children: ['socket', 'other'] }))).toBe(false);
    const filled = I['']['what reads filled is text, by form and field, for at most as many forms as views are kept alive'];
    const forms = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { a: 'x' }]));
    expect(filled(held({ context: { filled: forms(10) } }))).toBe(true);
    expect(filled(held({ context: { filled: forms(11) } }))).toBe(false);
    expect(filled(held({ context: { filled: { f: { a: 1 } } } }))).toBe(false);
    expect(filled(held({ context: { filled: { f: null } } }))).toBe(false);
    expect(filled(held({ context: { filled: { f: 'x' } } }))).toBe(false);
    // one bad value or form among good ones is enough
    expect(filled(held({ context: { filled: { f: { a: 'x', b: 1 } } } }))).toBe(false);
    expect(filled(held({ context: { filled: { f: { a: 'x' }, g: null } } }))).toBe(false);
  });

  it('idle, attempting, opening, open', () => {
    const idle = I.idle['nothing asked yet: nothing runs, no port, no link, no card, no error, from the first port'];
    expect(idle(held())).toBe(true);
    expect(idle(held({ children: ['socket'] }))).toBe(false);
    expect(idle(held({ context: { port: 1 } }))).toBe(false);
    expect(idle(held({ context: { link: 'connected' } }))).toBe(false);
    expect(idle(held({ context: { card: CARD } }))).toBe(false);
    expect(idle(held({ context: { error: 'x' } }))).toBe(false);
    expect(idle(held({ context: { index: 1 } }))).toBe(false);
    expect(I.attempt['the socket of the port being tried runs'](held({ children: ['socket'] }))).toBe(true);
    expect(I.attempt['the socket of the port being tried runs'](held())).toBe(false);
    const opening = I['attempt.opening']['a port is being opened: busy, none connected yet'];
    expect(opening(held({ tags: ['busy'] }))).toBe(true);
    expect(opening(held())).toBe(false);
    expect(opening(held({ tags: ['busy', 'connected'] }))).toBe(false);
    expect(opening(held({ tags: ['busy'], context: { port: 1 } }))).toBe(false);
    const openOk = I['attempt.open']['connected on the port of this attempt'];
    expect(openOk(held({ tags: ['connected'], context: { index: 1, port: 2 } }))).toBe(true);
    expect(openOk(held({ tags: ['connected'], context: { index: 1, port: 1 } }))).toBe(false);
    expect(openOk(held({ context: { index: 1, port: 2 } }))).toBe(false);
  });

  it('the card states', () => {
    expect(I['attempt.open.cardInserted']['a card just put in: nothing of an earlier card shown'](held())).toBe(true);
    expect(I['attempt.open.cardInserted']['a card just put in: nothing of an earlier card shown'](held({ context: { card: CARD } }))).toBe(false);
    expect(I['attempt.open.reading']['the card is being read: busy'](held({ tags: ['busy'] }))).toBe(true);
    expect(I['attempt.open.reading']['the card is being read: busy'](held())).toBe(false);
    const read = I['attempt.open.cardRead']['a card read is shown, with a name and an identity number'];
    expect(read(held({ context: { card: CARD } }))).toBe(true);
    expect(read(held())).toBe(false);
    expect(read(held({ context: { card: { ...CARD, name: ' ' } } }))).toBe(false);
    expect(read(held({ context: { card: { ...CARD, idNumber: '' } } }))).toBe(false);
    expect(read(held({ context: { card: { ...CARD, idNumber: '  ' } } }))).toBe(false);
  });

  it('pausing and the three failures', () => {
    const pausing = I.pausing['between two ports: nothing runs, none connected, the next port already chosen'];
    expect(pausing(held({ context: { index: 1 } }))).toBe(true);
    expect(pausing(held({ context: { index: 0 } }))).toBe(false);
    expect(pausing(held({ context: { index: 1 }, children: ['socket'] }))).toBe(false);
    expect(pausing(held({ context: { index: 1, port: 1 } }))).toBe(false);
    expect(pausing(held({ context: { index: 1 }, tags: ['busy'] }))).toBe(false);
    const missing = I.serviceMissing['every port was tried: the guide to install the connector, nothing runs, no port'];
    const m = { message: DEVICE_MESSAGES.connectorMissing, index: 2 };
    expect(missing(held({ context: m }))).toBe(true);
    expect(missing(held({ context: { ...m, index: 1 } }))).toBe(false);
    expect(missing(held({ context: { ...m, message: 'Connect failed' } }))).toBe(false);
    expect(missing(held({ context: { ...m, port: 3 } }))).toBe(false);
    expect(missing(held({ context: m, children: ['socket'] }))).toBe(false);
    const closed = I.closed['Connect failed, nothing runs, no link'];
    expect(closed(held({ context: { message: 'Connect failed' } }))).toBe(true);
    expect(closed(held({ context: { message: DEVICE_MESSAGES.connectorMissing } }))).toBe(false);
    expect(closed(held({ context: { message: 'Connect failed', link: 'connected' } }))).toBe(false);
    expect(closed(held({ context: { message: 'Connect failed' }, children: ['socket'] }))).toBe(false);
    const outdated = I.outdated['the connector must be upgraded, the version it announced kept; nothing runs, no link'];
    const o = { message: DEVICE_MESSAGES.connectorOutdated, announcedVersion: 'v0.9' };
    expect(outdated(held({ context: o }))).toBe(true);
    expect(outdated(held({ context: { ...o, announcedVersion: null } }))).toBe(false);
    expect(outdated(held({ context: { ...o, message: 'Connect failed' } }))).toBe(false);
    expect(outdated(held({ context: { ...o, link: 'connected' } }))).toBe(false);
    expect(outdated(held({ context: o, children: ['socket'] }))).toBe(false);
  });
});
