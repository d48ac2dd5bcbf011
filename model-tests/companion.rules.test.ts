// The desktop companion's rules (machines/companion.ts, §1, §4, §7), its selectors and its invariants, written down
// apart from the machine with values worked out by hand (the mutation run of 2026-12-03, docs/TESTING.md "Mutation
// score"): the order the candidates are probed in and when it is drawn again, which port is kept, the words of every
// failure, the request ids it makes up, what it sends and remembers, how each answer is matched, and what the header
// badge and the buttons show. Small cases on the real actor with controllable discovery, a fake socket and a simulated
// clock (the model test's graph is too slow to build again for each mutant).
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromCallback } from 'xstate';
import { SENTENCE_KEY, type Sentence } from '../contract';
import { companionMachine, portOrder, type CompanionEmitted, type CompanionSocketCommand } from '../machines/companion';
import {
  selectCanCapturePhoto,
  selectCanNotify,
  selectCanPrintBadge,
  selectCanUseCompanion,
  selectCompanionError,
  selectCompanionIsBusy,
  selectCompanionIsWaiting,
  selectCompanionPort,
  selectCompanionStatus,
  selectCompanionVersion,
} from '../machines/companion.selectors';
import { invariants } from '../machines/companion.invariants';
import { createControls, flush } from './harness';

const NONE = 'No desktop companion answered on this computer';
const PNG = { name: 'photo.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' };
const json = (o: unknown) => JSON.stringify(o);
const hello = (capabilities: string[], version = '1.4.0') => json({ type: 'hello', version, capabilities });
const ALL = ['photo.capture', 'badge.print', 'notify.alarm'];

function companion(ports = [5, 3, 4]) {
  const controls = createControls();
  const clock = new SimulatedClock();
  const sent: CompanionCommandSent[] = [];
  const sockets: number[] = [];
  const messages = fromCallback<CompanionSocketCommand, { port: number }>(({ input, receive }) => {
    sockets.push(input.port);
    receive((e) => sent.push(e.message as CompanionCommandSent));
  });
  const machine = companionMachine.provide({ actors: { shufflePorts: controls.logic<number[], any>(), probePort: controls.logic<unknown, any>(), messages } });
  const actor = createActor(machine, { input: { ports }, clock });
  // what it emits, each failure's words as their English; its sentence (key and values, issue 48) kept in `said` and
  // checked to be those words
  const heard: CompanionEmitted[] = [];
  const said: Sentence[] = [];
  actor.on('*', (e) => {
    if ('sentence' in e) {
      const { sentence, ...words } = e as CompanionEmitted & { sentence: Sentence };
      expect(SENTENCE_KEY.test(sentence.code)).toBe(true);
      expect(sentence.message).toBe('message' in words ? words.message : (words as { reason: string }).reason);
      said.push(sentence);
      heard.push(words as CompanionEmitted);
    } else heard.push(e as CompanionEmitted);
  });
  actor.start();
  const s = () => actor.getSnapshot();
  const probes = () => controls.inputs.filter((i) => i.id === 'probe').map((i) => (i.input as { port: number }).port);
  const shuffles = () => controls.inputs.filter((i) => i.id === 'shuffle').map((i) => (i.input as { ports: number[] }).ports);
  const message = (data: unknown) => actor.send({ type: 'socket.message', data });
  /** The tooltip's words: the last problem's English, or null. */
  const error = () => s().context.error?.message ?? null;
  return { controls, clock, sent, sockets, actor, heard, said, s, error, probes, shuffles, message };
}
type CompanionCommandSent = Record<string, unknown> & { type: string };

/** Found on the first candidate of the order [4, 5, 3], introduced with these capabilities. */
async function connected(capabilities = ALL) {
  const c = companion();
  await c.controls.settle('shuffle', 'done', [4, 5, 3]);
  await c.controls.settle('probe', 'done', { name: 'Gatehouse Companion' });
  c.message(hello(capabilities));
  await flush();
  c.heard.length = 0;
  return c;
}

describe('companion discovery, worked out by hand', () => {
  it('trusts the shuffle only as a permutation of the candidates: others and repeats dropped, the missing appended in order', () => {
    expect(portOrder([3, 9, 3, 1], [1, 2, 3])).toEqual([3, 1, 2]);
    expect(portOrder('3,1', [1, 2, 3])).toEqual([1, 2, 3]);
    expect(portOrder(null, [1, 2])).toEqual([1, 2]);
    expect(portOrder([2, 1], [1, 2])).toEqual([2, 1]);
  });

  it('draws the order from the candidates sorted, sweeps all of them at start-up, then waits 1 s saying why', async () => {
    const { controls, clock, s, probes, shuffles, actor } = companion();
    expect(shuffles()).toEqual([[3, 4, 5]]);
    expect(s().value).toEqual({ offline: 'shuffling' });
    await controls.settle('shuffle', 'done', [4, 9, 4]);
    expect(s().context.order).toEqual([4, 5, 3]);
    expect(probes()).toEqual([4]);
    await controls.settle('probe', 'error', new Error('refused'));
    expect(probes()).toEqual([4, 5]);
    // the 10 s of a probe that hangs count as a refusal
    clock.increment(9_999);
    await flush();
    expect(probes()).toEqual([4, 5]);
    clock.increment(1);
    await flush();
    expect(probes()).toEqual([4, 5, 3]);
    await controls.settle('probe', 'error', new Error('refused'));
    expect(s().value).toBe('waiting');
    expect(s().context).toMatchObject({ index: 3, sweep: false, attempt: 0, error: { message: NONE, code: 'companion.noAnswer', values: {} } });
    expect(selectCompanionError(s())?.message).toBe(NONE);
    expect(selectCompanionIsWaiting(s())).toBe(true);
    expect(selectCompanionStatus(s())).toBe('offline');
    // all tried: a new cycle is drawn after the backoff of 1 s (not a millisecond less), the failed round counted
    clock.increment(999);
    await flush();
    expect(s().value).toBe('waiting');
    clock.increment(1);
    await flush();
    expect(s().context.attempt).toBe(1);
    expect(shuffles()).toEqual([
      [3, 4, 5],
      [3, 4, 5],
    ]);
    // the shuffle failing keeps the order it had, from its first candidate
    await controls.settle('shuffle', 'error', new Error('no randomness'));
    expect(s().context).toMatchObject({ order: [4, 5, 3], index: 0 });
    expect(probes().at(-1)).toBe(4);
    // no longer sweeping: one refused candidate, then the backoff of 2 s
    await controls.settle('probe', 'error', new Error('refused'));
    expect(s().value).toBe('waiting');
    expect(s().context.index).toBe(1);
    clock.increment(1_999);
    await flush();
    expect(s().value).toBe('waiting');
    clock.increment(1);
    await flush();
    // the next candidate of the same cycle, without a new shuffle
    expect(shuffles()).toHaveLength(2);
    expect(probes().at(-1)).toBe(5);
    expect(s().context.attempt).toBe(2);
    // the operator's retry: all of them again from the first of this order, at once
    await controls.settle('probe', 'error', new Error('refused'));
    actor.send({ type: 'companion.retry' });
    await flush();
    expect(s().context).toMatchObject({ sweep: true, index: 0, attempt: 3 });
    expect(probes().at(-1)).toBe(4);
    expect(shuffles()).toHaveLength(2);
    await controls.settle('probe', 'error', new Error('refused'));
    expect(probes().at(-1)).toBe(5);
  });

  it('the candidate that answers is the port connected to; its hello says who it is, and the failed rounds start again from 0', async () => {
    const { controls, clock, s, sockets, heard, message, error } = companion();
    await controls.settle('shuffle', 'done', [4, 5, 3]);
    await controls.settle('probe', 'error', new Error('refused'));
    await controls.settle('probe', 'error', new Error('refused'));
    await controls.settle('probe', 'error', new Error('refused'));
    clock.increment(1000);
    await flush();
    await controls.settle('shuffle', 'done', [3, 4, 5]);
    await controls.settle('probe', 'done', {});
    expect(sockets).toEqual([3]);
    expect(s().context.port).toBe(3);
    expect(selectCompanionStatus(s())).toBe('found');
    expect(selectCompanionPort(s())).toBe(3);
    expect(selectCanUseCompanion(s())).toBe(false);
    expect(selectCompanionVersion(s())).toBeNull();
    expect(s().context.attempt).toBe(1);
    // anything but hello first is reported and leaves it found
    message(json({ type: 'error', message: 'busy' }));
    expect(heard.at(-1)).toEqual({ type: 'companion.failed', message: "Companion sent 'error' before saying hello" });
    expect(error()).toBe("Companion sent 'error' before saying hello");
    expect(s().context.error).toMatchObject({ code: 'companion.beforeHello', values: { type: 'error' } });
    message('{not json');
    expect(heard.at(-1)).toEqual({ type: 'companion.failed', message: 'The console cannot read what the companion sent: Companion: not JSON' });
    expect(selectCompanionStatus(s())).toBe('found');
    message(hello(['photo.capture'], '2.0.1'));
    expect(heard.at(-1)).toEqual({ type: 'companion.connected', port: 3, version: '2.0.1', capabilities: ['photo.capture'] });
    expect(s().context).toMatchObject({ attempt: 0, error: null, version: '2.0.1' });
    expect(selectCompanionStatus(s())).toBe('connected');
    expect(selectCompanionVersion(s())).toBe('2.0.1');
    expect(selectCanCapturePhoto(s())).toBe(true);
    expect(selectCanPrintBadge(s())).toBe(false);
    expect(selectCanNotify(s())).toBe(false);
    // a later hello while connected says what it can do now
    message(hello(['badge.print', 'notify.alarm'], '2.0.2'));
    expect(selectCompanionVersion(s())).toBe('2.0.2');
    expect(selectCanCapturePhoto(s())).toBe(false);
    expect(selectCanPrintBadge(s())).toBe(true);
    expect(selectCanNotify(s())).toBe(true);
  });

  it('a connection closed says why, a socket that fails says its error or a default; the backoff forgets the companion', async () => {
    const a = await connected();
    a.actor.send({ type: 'socket.closed', reason: 'gone' });
    expect(a.heard).toEqual([{ type: 'companion.disconnected', reason: 'Companion connection closed: gone' }]);
    expect(a.error()).toBe('Companion connection closed: gone');
    expect(a.said).toEqual([{ message: 'Companion connection closed: gone', code: 'companion.closedBecause', values: { reason: 'gone' } }]);
    expect(selectCompanionPort(a.s())).toBeNull();
    expect(selectCompanionVersion(a.s())).toBeNull();
    a.clock.increment(1000);
    await flush();
    expect(a.s().context).toMatchObject({ port: null, version: null, capabilities: [], attempt: 1 });
    const b = await connected();
    b.actor.send({ type: 'socket.closed' });
    expect(b.heard).toEqual([{ type: 'companion.disconnected', reason: 'Companion connection closed' }]);
    const c = await connected();
    c.actor.send({ type: 'xstate.error.actor.messages', error: new Error('bad url') } as never);
    expect(c.heard).toEqual([{ type: 'companion.disconnected', reason: 'The companion connection failed: bad url' }]);
    expect(c.error()).toBe('The companion connection failed: bad url');
    const d = await connected();
    d.actor.send({ type: 'xstate.error.actor.messages', error: {} } as never);
    expect(d.heard).toEqual([{ type: 'companion.disconnected', reason: 'The companion connection failed' }]);
    expect(d.error()).toBe('The companion connection failed');
    expect(d.said.map((x) => x.code)).toEqual(['companion.connectionFailed']);
    expect(d.s().value).toBe('waiting');
  });
});

describe('companion commands and answers, worked out by hand', () => {
  it('makes up request ids req-1, req-2 when a view gives none, sends each command as the contract says, and remembers what waits', async () => {
    const { actor, sent, s, heard } = await connected();
    actor.send({ type: 'companion.capturePhoto', purpose: 'identity' });
    actor.send({ type: 'companion.printBadge', visitor: { name: 'Vera' }, qr: null });
    actor.send({ type: 'companion.printBadge', visitor: { name: 'Ian' }, qr: 'VIS-9', requestId: 'mine' });
    actor.send({ type: 'companion.capturePhoto', purpose: 'visitor' });
    actor.send({ type: 'companion.notify', title: 'Door forced', message: 'Main entrance' });
    expect(sent).toEqual([
      { type: 'photo.capture', requestId: 'req-1', purpose: 'identity' },
      { type: 'badge.print', requestId: 'req-2', visitor: { name: 'Vera' } },
      { type: 'badge.print', requestId: 'mine', visitor: { name: 'Ian' }, qr: 'VIS-9' },
      { type: 'photo.capture', requestId: 'req-3', purpose: 'visitor' },
      { type: 'notify.alarm', title: 'Door forced', message: 'Main entrance' },
    ]);
    expect(s().context.pending).toEqual({
      'req-1': { kind: 'photo.capture', purpose: 'identity' },
      'req-2': { kind: 'badge.print' },
      mine: { kind: 'badge.print' },
      'req-3': { kind: 'photo.capture', purpose: 'visitor' },
    });
    expect(selectCompanionIsBusy(s())).toBe(true);
    expect(heard).toEqual([]);
  });

  it('refuses a request id already waiting, a command the contract refuses, and one the companion cannot do, each in words', async () => {
    const { actor, sent, s, heard } = await connected(['badge.print']);
    actor.send({ type: 'companion.printBadge', visitor: { name: 'Vera' }, requestId: 'r1' });
    actor.send({ type: 'companion.printBadge', visitor: { name: 'Vera' }, requestId: 'r1' });
    actor.send({ type: 'companion.printBadge', visitor: { name: '' }, requestId: 'r2' });
    actor.send({ type: 'companion.capturePhoto', purpose: 'identity', requestId: 'r3' });
    actor.send({ type: 'companion.capturePhoto', purpose: 'identity' });
    actor.send({ type: 'companion.notify', title: 'T', message: 'M' });
    expect(sent).toHaveLength(1);
    expect(Object.keys(s().context.pending)).toEqual(['r1']);
    expect(heard[0]).toEqual({ type: 'companion.failed', requestId: 'r1', message: 'Request r1 is already waiting for the companion' });
    // the contract's command is a union of kinds: its check names the body, not the visitor's field
    expect(heard[1]).toEqual({ type: 'companion.failed', requestId: 'r2', message: 'Cannot send to the companion: (body) is invalid' });
    expect(heard.slice(2)).toEqual([
      { type: 'companion.failed', requestId: 'r3', message: 'The desktop companion cannot capture photos' },
      { type: 'companion.failed', message: 'The desktop companion cannot capture photos' },
      { type: 'companion.failed', message: 'The desktop companion cannot show notifications' },
    ]);
    const other = await connected(['photo.capture']);
    other.actor.send({ type: 'companion.printBadge', visitor: { name: 'Vera' }, requestId: 'b' });
    expect(other.heard).toEqual([{ type: 'companion.failed', requestId: 'b', message: 'The desktop companion cannot print badges' }]);
    expect(other.said.map((x) => x.code)).toEqual(['companion.cannotPrintBadges']);
  });

  it('matches each answer to the request waiting for it; an answer of the wrong kind or for nobody is reported, never applied', async () => {
    const { actor, message, s, heard, error } = await connected();
    actor.send({ type: 'companion.capturePhoto', purpose: 'identity', requestId: 'p' });
    actor.send({ type: 'companion.printBadge', visitor: { name: 'Vera' }, requestId: 'b' });
    message(json({ type: 'badge.printed', requestId: 'p' }));
    const wrong = "Companion answered 'badge.printed' for request p, which is not waiting for it";
    expect(heard).toEqual([{ type: 'companion.failed', message: wrong }]);
    expect(error()).toBe(wrong);
    expect(Object.keys(s().context.pending)).toEqual(['p', 'b']);
    message(json({ type: 'photo.captured', requestId: 'b', file: PNG }));
    expect(heard.at(-1)).toEqual({ type: 'companion.failed', message: "Companion answered 'photo.captured' for request b, which is not waiting for it" });
    message(json({ type: 'photo.captured', requestId: 'p', file: PNG }));
    expect(heard.at(-1)).toEqual({ type: 'companion.photoCaptured', requestId: 'p', purpose: 'identity', file: PNG });
    expect(Object.keys(s().context.pending)).toEqual(['b']);
    message(json({ type: 'photo.captured', requestId: 'p', file: PNG }));
    expect(heard.at(-1)).toMatchObject({ type: 'companion.failed' });
    message(json({ type: 'badge.printed', requestId: 'b' }));
    expect(heard.at(-1)).toEqual({ type: 'companion.badgePrinted', requestId: 'b' });
    expect(s().context.pending).toEqual({});
    expect(selectCompanionIsBusy(s())).toBe(false);
  });

  it('an error answer lets its request go and says so to it; one for nobody, or without a request, is told to all', async () => {
    const { actor, message, s, heard, said, error } = await connected();
    const answered = (m: string) => `The desktop companion answered: ${m}`;
    actor.send({ type: 'companion.printBadge', visitor: { name: 'Vera' }, requestId: 'b' });
    message(json({ type: 'error', requestId: 'zz', message: 'Who?' }));
    expect(heard.at(-1)).toEqual({ type: 'companion.failed', message: answered('Who?') });
    expect(Object.keys(s().context.pending)).toEqual(['b']);
    message(json({ type: 'error', message: 'Camera unplugged' }));
    expect(heard.at(-1)).toEqual({ type: 'companion.failed', message: answered('Camera unplugged') });
    expect(error()).toBe(answered('Camera unplugged'));
    message(json({ type: 'error', requestId: 'b', message: 'Printer out of paper' }));
    expect(heard.at(-1)).toEqual({ type: 'companion.failed', requestId: 'b', message: answered('Printer out of paper') });
    // the companion's own words are a value of the sentence, shown as they came
    expect(said.at(-1)).toEqual({ message: answered('Printer out of paper'), code: 'companion.answeredError', values: { message: 'Printer out of paper' } });
    expect(s().context.pending).toEqual({});
    expect(error()).toBe(answered('Printer out of paper'));
    message(42);
    const unreadable = 'The console cannot read what the companion sent: Companion: not a text message';
    expect(heard.at(-1)).toEqual({ type: 'companion.failed', message: unreadable });
    expect(error()).toBe(unreadable);
    expect(selectCompanionStatus(s())).toBe('connected');
  });

  it('when the connection drops, every request waiting hears that no answer will come, and none waits any more', async () => {
    const { actor, s, heard } = await connected();
    actor.send({ type: 'companion.capturePhoto', purpose: 'identity', requestId: 'p' });
    actor.send({ type: 'companion.printBadge', visitor: { name: 'Vera' }, requestId: 'b' });
    actor.send({ type: 'socket.closed', reason: 'gone' });
    expect(heard).toEqual(
      expect.arrayContaining([
        { type: 'companion.failed', requestId: 'p', message: 'The desktop companion disconnected before it answered.' },
        { type: 'companion.failed', requestId: 'b', message: 'The desktop companion disconnected before it answered.' },
      ]),
    );
    expect(heard.filter((e) => e.type === 'companion.failed')).toHaveLength(2);
    expect(s().context.pending).toEqual({});
  });
});

describe('companion invariants, each against a state that breaks it', () => {
  const held = (o: { context?: Record<string, unknown>; children?: string[]; tags?: string[] } = {}) =>
    ({
      context: { order: [1, 2], index: 0, port: null, attempt: 0, version: null, capabilities: [], pending: {}, error: null, ...o.context },
      children: Object.fromEntries((o.children ?? []).map((c) => [c, {}])),
      hasTag: (t: string) => (o.tags ?? []).includes(t),
    }) as never;
  const I = invariants;
  it('in every state: an order without repeats, rounds counted from 0, requests waiting only on a usable companion', () => {
    const order = I['']['the candidates are probed in an order without repeats'];
    expect(order(held())).toBe(true);
    expect(order(held({ context: { order: [] } }))).toBe(false);
    expect(order(held({ context: { order: [1, 1] } }))).toBe(false);
    const rounds = I['']['the failed rounds are counted from 0'];
    expect(rounds(held())).toBe(true);
    expect(rounds(held({ context: { attempt: -1 } }))).toBe(false);
    expect(rounds(held({ context: { attempt: 1.5 } }))).toBe(false);
    const waiting = I['']['only a usable companion has requests waiting for an answer'];
    expect(waiting(held({ context: { pending: { r: { kind: 'badge.print' } } }, tags: ['usable'] }))).toBe(true);
    expect(waiting(held())).toBe(true);
    expect(waiting(held({ context: { pending: { r: { kind: 'badge.print' } } } }))).toBe(false);
  });

  it('offline, shuffling and probing', () => {
    const off = I.offline['looking for the companion: nothing of an earlier one is known, no socket, not usable'];
    expect(off(held({ children: ['probe'] }))).toBe(true);
    expect(off(held({ context: { port: 1 } }))).toBe(false);
    expect(off(held({ context: { version: '1' } }))).toBe(false);
    expect(off(held({ context: { capabilities: ['badge.print'] } }))).toBe(false);
    expect(off(held({ context: { pending: { r: { kind: 'badge.print' } } } }))).toBe(false);
    expect(off(held({ children: ['messages'] }))).toBe(false);
    expect(off(held({ tags: ['usable'] }))).toBe(false);
    const shuffling = I['offline.shuffling']['the order of this round is being drawn, and only that'];
    expect(shuffling(held({ children: ['shuffle'] }))).toBe(true);
    expect(shuffling(held({ children: ['shuffle', 'probe'] }))).toBe(false);
    const probing = I['offline.probing']['one candidate of the order is probed, and only that'];
    expect(probing(held({ children: ['probe'], context: { index: 1 } }))).toBe(true);
    expect(probing(held({ children: ['probe'], context: { index: 2 } }))).toBe(false);
    expect(probing(held({ children: ['probe'], context: { index: -1 } }))).toBe(false);
    expect(probing(held({ children: [] }))).toBe(false);
  });

  it('online, found, connected and waiting', () => {
    const online = I.online['the socket to the candidate that answered runs, and only that'];
    expect(online(held({ children: ['messages'], context: { port: 2 } }))).toBe(true);
    expect(online(held({ children: ['messages'], context: { port: 3 } }))).toBe(false);
    expect(online(held({ children: ['messages'] }))).toBe(false);
    expect(online(held({ children: ['messages', 'probe'], context: { port: 2 } }))).toBe(false);
    const found = I['online.found']['found but not yet introduced: no version, no capabilities, not usable'];
    expect(found(held())).toBe(true);
    expect(found(held({ context: { version: '1' } }))).toBe(false);
    expect(found(held({ context: { capabilities: ['x'] } }))).toBe(false);
    expect(found(held({ tags: ['usable'] }))).toBe(false);
    const conn = I['online.connected']['introduced: its version known, usable, and no failed round counted'];
    expect(conn(held({ context: { version: '1.4.0' }, tags: ['usable'] }))).toBe(true);
    expect(conn(held({ context: { version: ' ' }, tags: ['usable'] }))).toBe(false);
    expect(conn(held({ context: { version: '1.4.0' } }))).toBe(false);
    expect(conn(held({ context: { version: '1.4.0', attempt: 1 }, tags: ['usable'] }))).toBe(false);
    const wait = I.waiting['between rounds: nothing runs, not usable, nothing waiting, and it says why'];
    const none = { message: NONE };
    expect(wait(held({ context: { error: none } }))).toBe(true);
    expect(wait(held({ context: { error: null } }))).toBe(false);
    expect(wait(held({ context: { error: { message: ' ' } } }))).toBe(false);
    expect(wait(held({ context: { error: none }, children: ['probe'] }))).toBe(false);
    expect(wait(held({ context: { error: none }, tags: ['usable'] }))).toBe(false);
    expect(wait(held({ context: { error: none, pending: { r: { kind: 'badge.print' } } } }))).toBe(false);
  });
});
