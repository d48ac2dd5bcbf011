// Model-based test of the live events list (machines/liveEvents.ts). The model is written apart from the machine: the
// rows are the newest MAX_ROWS of every event that ever joined the list (by time, then id), the held-back events are
// the newest MAX_ROWS that came while paused, and the reads on their way are a set. fast-check draws sequences of
// live frames, pauses, resumes, filters, resyncs, history answers and failures, reads' answers and failures in any
// order; after every step the real actor's state, rows, held-back events, reads, children and what it emitted match
// the model, and every invariant in the machine's `meta` holds. A journal of it replays line for line, and a list
// shown again comes back as it was left.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createActor, fromCallback, waitFor, type AnyActorRef } from 'xstate';
import type { Event } from '../contract';
import { liveEventsMachine, MAX_ROWS, type LiveEventsEmitted, type LiveEventsEvent, type LiveEventsInput } from '../machines/liveEvents';
import { selectCarry, selectHistoryFilters, selectShownEvents } from '../machines/liveEvents.selectors';
import { newestFirst } from '../machines/eventOrder';
import { createJournal, replayImpl, replayJournal, weightOf } from '../machines/journal';
import { createGatehouseSystem } from '../machines/system';
import { createControls, flush, invariantsOf } from './harness';

// an event is a function of its id; its time is not in id order (the list sorts by time)
const ev = (id: number): Event =>
  ({
    id,
    time: new Date(Date.UTC(2026, 0, 1) + ((id * 7919) % 1000) * 1000).toISOString(),
    eventCode: 20000 + (id % 7),
    message: `event ${id}`,
    alert: id % 5 === 0,
    eventPointName: id % 3 === 0 ? 'Loading Bay' : null,
  }) as unknown as Event;
const evs = (ids: number[]) => ids.map(ev);

function start(input?: LiveEventsInput) {
  const controls = createControls();
  let hear: ((e: LiveEventsEvent) => void) | null = null;
  const listen = fromCallback<LiveEventsEvent>(({ sendBack }) => {
    hear = sendBack;
  });
  const machine = liveEventsMachine.provide({ actors: { history: controls.logic<Event[]>(), readAfter: controls.logic<Event[], number>(), listen } });
  const actor = createActor(machine, { input });
  const emitted: number[] = [];
  actor.on('events.added', (e: LiveEventsEmitted) => {
    emitted.push(e.count);
  });
  actor.start();
  return { controls, actor, emitted, hear: (e: LiveEventsEvent) => hear!(e) };
}

const ids = fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 6 });
const step = fc.oneof(
  { weight: 4, arbitrary: fc.record({ type: fc.constant('frame' as const), ids }) },
  fc.record({ type: fc.constant('pause' as const) }),
  fc.record({ type: fc.constant('resume' as const) }),
  fc.record({ type: fc.constant('filter' as const), text: fc.constantFrom('', '5', 'event 1', 'loading', 'zz') }),
  fc.record({ type: fc.constant('alertsOnly' as const), on: fc.boolean() }),
  fc.record({ type: fc.constant('resync' as const) }),
  fc.record({ type: fc.constant('history' as const), ids: fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 30 }) }),
  fc.record({ type: fc.constant('historyFails' as const) }),
  fc.record({ type: fc.constant('answer' as const), k: fc.nat(), ids }),
  fc.record({ type: fc.constant('readFails' as const), k: fc.nat() }),
  fc.record({ type: fc.constant('stray' as const) }),
);

/** The model: what joined the list, what waits, which reads are on their way. */
class Model {
  joined = new Map<number, Event>();
  held: Event[] = [];
  paused = false;
  filter = '';
  alertsOnly = false;
  history: 'loading' | 'loaded' | 'failed' = 'loading';
  reads = new Map<string, number>();
  seq = 0;
  added: number[] = [];
  rows() {
    return [...this.joined.values()].sort(newestFirst).slice(0, MAX_ROWS);
  }
  join(events: Event[]) {
    for (const e of events) this.joined.set(Number(e.id), e);
  }
  live(events: Event[], fromSocket: boolean) {
    if (this.paused) this.held = [...this.held, ...events].slice(-MAX_ROWS);
    else {
      this.join(events);
      if (fromSocket && events.length) this.added.push(events.length);
    }
  }
  newestId() {
    return Math.max(0, ...this.rows().map((e) => Number(e.id)));
  }
}

describe('live events model', () => {
  it('keeps the newest rows, holds back while paused, reads what it missed, and every invariant holds', async () => {
    const held: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), async (steps) => {
        const { controls, actor, emitted, hear } = start();
        await flush();
        const m = new Model();
        for (const s of steps) {
          const waiting = [...m.reads.keys()];
          if (s.type === 'frame') {
            hear({ type: 'events.received', events: evs(s.ids) });
            m.live(evs(s.ids), true);
          } else if (s.type === 'pause') {
            actor.send({ type: 'events.pause' });
            m.paused = true;
          } else if (s.type === 'resume') {
            actor.send({ type: 'events.resume' });
            if (m.paused) {
              m.join(m.held);
              m.held = [];
              m.paused = false;
            }
          } else if (s.type === 'filter') {
            actor.send({ type: 'events.filter', text: s.text });
            m.filter = s.text;
          } else if (s.type === 'alertsOnly') {
            actor.send({ type: 'events.alertsOnly', on: s.on });
            m.alertsOnly = s.on;
          } else if (s.type === 'resync') {
            hear({ type: 'socket.resynced' });
            if (m.history === 'failed') m.history = 'loading';
            else if (m.history === 'loaded') {
              m.reads.set(`read-${++m.seq}`, m.newestId());
              await flush();
              expect(controls.inputs.at(-1)).toEqual({ id: `read-${m.seq}`, input: m.newestId() });
            }
          } else if (s.type === 'history' || s.type === 'historyFails') {
            const answered = await controls.settle(
              'history',
              s.type === 'history' ? 'done' : 'error',
              s.type === 'history' ? evs(s.ids) : new Error('offline'),
            );
            expect(answered).toBe(m.history === 'loading');
            if (answered && s.type === 'history') {
              m.join(evs(s.ids)); // the history joins the list, paused or not
              m.history = 'loaded';
            } else if (answered) m.history = 'failed';
          } else if (s.type === 'answer' && waiting.length) {
            const id = waiting[s.k % waiting.length];
            const found = evs(s.ids.map((i) => i + m.reads.get(id)!));
            expect(await controls.settle(id, 'done', found)).toBe(true);
            m.reads.delete(id);
            m.live(found, false);
          } else if (s.type === 'readFails' && waiting.length) {
            const id = waiting[s.k % waiting.length];
            expect(await controls.settle(id, 'error', new Error('offline'))).toBe(true);
            m.reads.delete(id);
          } else if (s.type === 'stray') {
            actor.send({ type: 'xstate.done.actor.read-999', actorId: 'read-999', output: evs([1, 2]) } as never);
          }
          await flush();
          const snap = actor.getSnapshot();
          expect(snap.value).toBe(m.history);
          expect(snap.context.rows).toEqual(m.rows());
          expect(snap.context.held).toEqual(m.held);
          expect(snap.context.paused).toBe(m.paused);
          expect(snap.context.reading).toEqual(Object.fromEntries(m.reads));
          const children = ['listen', ...(m.history === 'loading' ? ['history'] : []), ...m.reads.keys()];
          expect(Object.keys(snap.children).sort()).toEqual(children.sort());
          // no read was stopped by another: every one on its way is still asking
          expect([...controls.pending.keys()].filter((k) => k !== 'history').sort()).toEqual([...m.reads.keys()].sort());
          expect(emitted).toEqual(m.added);
          // what the table shows: the rows through the filter
          const q = m.filter.trim().toLowerCase();
          const shown = m
            .rows()
            .filter(
              (e) =>
                (!m.alertsOnly || e.alert) && (!q || e.message.includes(q) || String(e.eventCode) === q || (e.eventPointName ?? '').toLowerCase().includes(q)),
            );
          expect(selectShownEvents(snap)).toEqual(shown);
          for (const [name, holds] of invariantsOf(snap)) {
            held[name] = (held[name] ?? 0) + 1;
            expect(holds(snap), name).toBe(true);
          }
        }
        actor.stop();
        expect(controls.pending.size).toBe(0); // closing the screen stops its reads
      }),
      { numRuns: 300, seed: 4811 },
    );
    // the oracle was not empty: the root's invariants and every state's were checked
    expect(Object.keys(held).length).toBeGreaterThanOrEqual(6);
  });

  it('holds at most MAX_ROWS back while paused, and shows them on resume', async () => {
    const { actor, hear, controls } = start();
    await controls.settle('history', 'done', []);
    actor.send({ type: 'events.pause' });
    hear({ type: 'events.received', events: evs(Array.from({ length: MAX_ROWS + 50 }, (_, i) => i + 1)) });
    expect(actor.getSnapshot().context.rows).toEqual([]);
    expect(actor.getSnapshot().context.held).toHaveLength(MAX_ROWS);
    actor.send({ type: 'events.resume' });
    expect(actor.getSnapshot().context.rows).toHaveLength(MAX_ROWS);
    expect(actor.getSnapshot().context.held).toEqual([]);
    actor.stop();
  });

  it('a list shown again comes back as it was left and reads what it missed after its newest id', async () => {
    const first = start();
    await first.controls.settle('history', 'done', evs([3, 9, 4]));
    first.actor.send({ type: 'events.filter', text: 'loading' });
    first.actor.send({ type: 'events.pause' });
    first.hear({ type: 'events.received', events: evs([12]) });
    const carried = selectCarry(first.actor.getSnapshot());
    first.actor.stop();
    const again = start({ carried });
    await flush();
    const snap = again.actor.getSnapshot();
    expect(snap.value).toBe('loaded');
    expect(snap.context.rows).toEqual(evs([3, 9, 4]).sort(newestFirst));
    expect(snap.context.held).toEqual(evs([12]));
    expect(snap.context.paused).toBe(true);
    expect(selectHistoryFilters(snap)).toEqual({ q: 'loading' });
    expect(again.controls.inputs).toEqual([{ id: 'read-1', input: 9 }]); // no history read: the gap after 9
    // a list whose history never came reads it again
    const failed = start({ carried: { ...carried, historyLoaded: false } });
    await flush();
    expect(failed.controls.inputs.map((i) => i.id)).toEqual(['history']);
    again.actor.stop();
    failed.actor.stop();
  });

  it('is replayed from its journal line for line', async () => {
    const j = createJournal();
    const controls = createControls();
    let hear: ((e: LiveEventsEvent) => void) | null = null;
    const logic = liveEventsMachine.provide({
      actors: {
        history: controls.logic<Event[]>(),
        readAfter: controls.logic<Event[], number>(),
        listen: fromCallback<LiveEventsEvent>(({ sendBack }) => {
          hear = sendBack;
        }),
      },
    });
    const root = createGatehouseSystem(
      { ...replayImpl(), views: { resolve: (id) => (id.startsWith('liveEvents#') ? logic : undefined) } },
      { inspect: j.inspect },
    ).start();
    const views = root.system.get('views') as AnyActorRef;
    views.send({ type: 'view.open', id: 'liveEvents#1' });
    const list = root.system.get('liveEvents#1') as AnyActorRef;
    await controls.settle('history', 'done', evs([1, 2, 3]));
    hear!({ type: 'events.received', events: evs([4]) });
    list.send({ type: 'events.pause' });
    hear!({ type: 'events.received', events: evs([5, 6]) });
    hear!({ type: 'socket.resynced' });
    await flush();
    await controls.settle('read-1', 'done', evs([7]));
    list.send({ type: 'events.resume' });
    list.send({ type: 'events.filter', text: 'event 7' });
    await waitFor(list, (s) => s.context.rows.length === 7);
    views.send({ type: 'view.close', id: 'liveEvents#1' });
    root.stop();
    const r = replayJournal(j.toNdjson());
    expect(r.ok ? 'ok' : r.message).toBe('ok');
    if (!r.ok) return;
    const steps = r.steps.filter((s) => s.actor === 'liveEvents#1');
    expect(steps.map((s) => s.event)).toEqual(
      expect.arrayContaining([
        'xstate.init',
        'xstate.done.actor.history',
        'events.received',
        'events.pause',
        'socket.resynced',
        'xstate.done.actor.read-1',
        'events.resume',
      ]),
    );
    expect(steps.every((s) => s.matches)).toBe(true);
    // a frame's events weigh in the journal's ring as many events, as the socket's batches do
    expect(weightOf({ type: 'events.received', events: evs([1, 2, 3]) })).toBe(3);
  });
});
