// The live events list (machines/liveEvents.ts) where liveEvents.model.test.ts does not reach, from the mutation run of
// 2026-12-02 (docs/TESTING.md): the invariants of its `meta` themselves (the model test checks them on a correct machine
// only, so an invariant weakened to `true` passed: each must reject a state that breaks it, worked out by hand), a list
// shown again with more held back than it may hold and with "alarms only" on, and answers that are not a list.
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import type { Event } from '../contract';
import {
  liveEventsMachine,
  MAX_ROWS,
  type LiveEventsContext,
  type LiveEventsEmitted,
  type LiveEventsEvent,
  type LiveEventsInput,
} from '../machines/liveEvents';
import { createControls, flush } from './harness';

// an event a minute, id i at minute i: the newest first is the highest id first
const ev = (id: number): Event =>
  ({ id, time: new Date(Date.UTC(2026, 0, 1) + id * 60_000).toISOString(), eventCode: 20000, message: `event ${id}`, alert: false }) as unknown as Event;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const newestFirst = (ids: number[]) => [...ids].sort((a, b) => b - a).map(ev);

function start(input?: LiveEventsInput) {
  const controls = createControls();
  let hear: ((e: LiveEventsEvent) => void) | null = null;
  const listen = fromCallback<LiveEventsEvent>(({ sendBack }) => {
    hear = sendBack;
  });
  const machine = liveEventsMachine.provide({ actors: { history: controls.logic<Event[]>(), readAfter: controls.logic<Event[], number>(), listen } });
  const actor = createActor(machine, { input });
  const emitted: number[] = [];
  const errors: unknown[] = [];
  actor.on('events.added', (e: LiveEventsEmitted) => {
    emitted.push(e.count);
  });
  actor.subscribe({ error: (e) => errors.push(e) });
  actor.start();
  return { controls, actor, emitted, errors, hear: (e: LiveEventsEvent) => hear!(e) };
}

describe('the invariants of the live events list reject the states that break them', () => {
  type Snap = { context: LiveEventsContext; children: Record<string, unknown> };
  type Inv = Record<string, (s: Snap) => boolean>;
  const root = liveEventsMachine.root.meta!.invariants as Inv;
  const byState = (state: 'loading' | 'loaded' | 'failed') => liveEventsMachine.root.states[state].meta!.invariants as Inv;
  const snap = (c: Partial<LiveEventsContext>, children: Record<string, unknown> = {}): Snap => ({
    context: { rows: [], held: [], paused: false, filter: '', alertsOnly: false, seq: 0, reading: {}, ...c },
    children,
  });
  const ROWS = `at most ${MAX_ROWS} rows, newest first, each event once`;
  const HELD = `at most ${MAX_ROWS} held back, and only while paused`;
  const READS = 'every read on its way is a running child';
  const NO_READ = 'no read after an id before the history is in (the history covers it)';
  // [where, invariant, state, holds]
  const cases: Array<[Inv, string, Snap, boolean]> = [
    [root, ROWS, snap({}), true],
    [root, ROWS, snap({ rows: newestFirst(range(1, MAX_ROWS)) }), true],
    [root, ROWS, snap({ rows: newestFirst(range(1, MAX_ROWS + 1)) }), false],
    [root, ROWS, snap({ rows: [ev(1), ev(2)] }), false], // oldest first
    [root, ROWS, snap({ rows: [ev(3), ev(2), ev(1)] }), true],
    [root, ROWS, snap({ rows: [ev(3), ev(2), ev(2)] }), false], // one event twice
    [root, HELD, snap({}), true],
    [root, HELD, snap({ paused: true, held: range(1, MAX_ROWS).map(ev) }), true],
    [root, HELD, snap({ paused: true, held: range(1, MAX_ROWS + 1).map(ev) }), false],
    [root, HELD, snap({ paused: false, held: [ev(1)] }), false],
    [root, READS, snap({}), true],
    [root, READS, snap({ reading: { 'read-1': 5 } }, { listen: {}, 'read-1': {} }), true],
    [root, READS, snap({ reading: { 'read-1': 5, 'read-2': 7 } }, { listen: {}, 'read-1': {} }), false],
    [byState('loading'), NO_READ, snap({}, { history: {} }), true],
    [byState('loading'), NO_READ, snap({ reading: { 'read-1': 0 } }, { history: {}, 'read-1': {} }), false],
    [byState('failed'), NO_READ, snap({}), true],
    [byState('failed'), NO_READ, snap({ reading: { 'read-1': 0 } }, { 'read-1': {} }), false],
    [byState('loaded'), 'the history is in', snap({}, { listen: {} }), true],
    [byState('loaded'), 'the history is in', snap({}, { listen: {}, history: {} }), false],
  ];
  it('every invariant has a state that breaks it and one that keeps it', () => {
    const named = [root, byState('loading'), byState('loaded'), byState('failed')].flatMap((inv) => Object.keys(inv));
    expect(new Set(cases.map(([, name]) => name))).toEqual(new Set(named));
    for (const [inv, name, s, holds] of cases) {
      const seen = { name, rows: s.context.rows.map((e) => e.id), held: s.context.held.length, reading: s.context.reading, children: Object.keys(s.children) };
      expect([seen, inv[name](s)]).toEqual([seen, holds]);
    }
  });
});

describe('a list shown again (a kept-alive screen hidden and shown)', () => {
  const carried = (o: Partial<NonNullable<LiveEventsInput['carried']>>) => ({
    rows: [],
    held: [],
    paused: true,
    filter: '',
    alertsOnly: false,
    historyLoaded: true,
    ...o,
  });

  it(`holds back at most the newest ${MAX_ROWS} of what it carried, like a paused list`, async () => {
    const { actor } = start({ carried: carried({ held: range(1, MAX_ROWS + 30).map(ev) }) });
    await flush();
    expect(actor.getSnapshot().context.held).toEqual(range(31, MAX_ROWS + 30).map(ev));
    actor.stop();
  });

  it('comes back with "alarms only" and the filter as they were left, paused or not', async () => {
    const on = start({ carried: carried({ alertsOnly: true, filter: 'bay', paused: false }) });
    await flush();
    expect(on.actor.getSnapshot().context).toMatchObject({ alertsOnly: true, filter: 'bay', paused: false });
    const off = start({ carried: carried({ alertsOnly: false, paused: true }) });
    await flush();
    expect(off.actor.getSnapshot().context).toMatchObject({ alertsOnly: false, filter: '', paused: true });
    // nothing carried: a new list, live, unfiltered
    const fresh = start();
    await flush();
    expect(fresh.actor.getSnapshot().context).toMatchObject({ rows: [], held: [], alertsOnly: false, filter: '', paused: false });
    for (const a of [on, off, fresh]) a.actor.stop();
  });
});

describe('answers that are not a list of events (a proxy’s page read as JSON)', () => {
  it('a history answer that is no list loads an empty list; a read’s is let go of like a failed read; the list goes on', async () => {
    const { actor, controls, hear, errors, emitted } = start();
    expect(await controls.settle('history', 'done', null)).toBe(true);
    await flush();
    expect(actor.getSnapshot().value).toBe('loaded');
    expect(actor.getSnapshot().context.rows).toEqual([]);
    hear({ type: 'events.received', events: [ev(4)] });
    hear({ type: 'socket.resynced' });
    await flush();
    expect(Object.keys(actor.getSnapshot().context.reading)).toEqual(['read-1']);
    expect(await controls.settle('read-1', 'done', { error: 'Bad gateway' })).toBe(true);
    await flush();
    expect(actor.getSnapshot().context.reading).toEqual({});
    expect('read-1' in actor.getSnapshot().children).toBe(false);
    expect(actor.getSnapshot().context.rows).toEqual([ev(4)]);
    hear({ type: 'events.received', events: [ev(5)] });
    expect(actor.getSnapshot().context.rows).toEqual([ev(5), ev(4)]);
    expect(emitted).toEqual([1, 1]);
    expect(errors).toEqual([]);
    actor.stop();
  });

  it('an empty frame from the socket adds nothing and says nothing was added', async () => {
    const { actor, controls, hear, emitted } = start();
    await controls.settle('history', 'done', [ev(1)]);
    hear({ type: 'events.received', events: [] });
    expect(emitted).toEqual([]);
    expect(actor.getSnapshot().context.rows).toEqual([ev(1)]);
    actor.stop();
  });

  it('a read answered with nothing (null) is let go of; a read answered with events fills the list without counting as a live frame', async () => {
    const { actor, controls, hear, errors, emitted } = start();
    await controls.settle('history', 'done', [ev(1)]);
    hear({ type: 'socket.resynced' });
    hear({ type: 'socket.resynced' });
    await flush();
    expect(Object.keys(actor.getSnapshot().context.reading).sort()).toEqual(['read-1', 'read-2']);
    expect(await controls.settle('read-1', 'done', null)).toBe(true);
    await flush();
    expect(Object.keys(actor.getSnapshot().context.reading)).toEqual(['read-2']);
    expect(actor.getSnapshot().context.rows).toEqual([ev(1)]);
    // what was stored meanwhile joins the list; `events.added` counts what a live frame brought (the view's burst), not this
    expect(await controls.settle('read-2', 'done', [ev(2), ev(3)])).toBe(true);
    await flush();
    expect(actor.getSnapshot().context.rows).toEqual([ev(3), ev(2), ev(1)]);
    expect(actor.getSnapshot().context.reading).toEqual({});
    expect(emitted).toEqual([]);
    expect(errors).toEqual([]);
    actor.stop();
  });
});
