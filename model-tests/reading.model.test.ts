// Model-based test of the one-answer read (machines/reading.ts): every edge on the real machine with a controllable
// `read` and a simulated clock. The last answer stays while it reads again and a restart drops it; the read gets the
// machine's input or the one a restart brought. Live (the dashboard's figures): changes during a wait join it, a wait
// that ends while a read is on its way is owed and read once the answer is in, and a notice during the wait is not
// sent at all (it would change nothing, and the journal would record every one).
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { SimulatedClock, createActor, transition, type InspectionEvent } from 'xstate';
import { DASHBOARD_LIVE_MS } from '../contract';
import { readingMachine, readingNotice, selectReadBusy, selectReadFailed, selectReadOutput, type ReadingSnapshot } from '../machines/reading';
import { createControls, edgePaths, onDemand, expectOracle, flush, onlyInvoked, replayEdgePath } from './harness';

describe('one-answer read model', () => {
  const events = [
    { type: 'read.reload' },
    { type: 'read.restart' },
    { type: 'read.restart', input: { zoneId: 4 } },
    { type: 'read.changed' },
    { type: 'live.due' },
    { type: 'xstate.done.actor.read', output: { items: [{ id: 1, name: 'HQ' }] } },
    { type: 'xstate.error.actor.read', error: new Error('offline') },
  ] as any[];
  // the clock's event comes only while a wait is on its way (the machine raised it, delayed)
  const offered = (s: ReadingSnapshot) => onlyInvoked(events)(s as any).filter((e: { type: string }) => e.type !== 'live.due' || s.context.waiting);
  const serialize = (s: ReadingSnapshot) =>
    JSON.stringify([s.value, s.context.output !== null, s.context.error !== null, s.context.waiting, s.context.owed, s.context.stale]);
  const input = { zoneId: 3 };
  const model = new TestModel(readingMachine as any, { events: offered as any, serializeState: serialize as any, limit: 2000, input } as any);
  const paths = onDemand(() => edgePaths(model, readingMachine, serialize, [], input));
  const steps = () => paths().flatMap((p) => p.path.steps.map((st, i) => ({ ...st, before: i > 0 ? p.path.steps[i - 1].state : null })));

  it('keeps the invariants of its states (reading.invariants.ts) at every step of the generated paths; an answer is shown as it came', () => {
    expectOracle(
      paths(),
      {
        'an answer is the output shown': ({ event, after }) =>
          event.type === 'xstate.done.actor.read' ? JSON.stringify(after.context.output) === JSON.stringify(event.output) : undefined,
        'a restart forgets the last answer until the next comes': ({ event, after }) =>
          event.type === 'read.restart' ? after.context.output === null : undefined,
        // a reload is never lost: at once, or once the read on its way is in (it may predate the change)
        'a reload reads again, now or once the read on its way is in': ({ event, before, after }) =>
          event.type === 'read.reload' ? after.matches('loading') && (!before.matches('loading') || after.context.stale) : undefined,
        'an answer in while a reload waited reads again at once': ({ event, before, after }) =>
          event.type.startsWith('xstate.') && before.context.stale ? after.matches('loading') && !after.context.stale && !after.context.owed : undefined,
      },
      4,
    );
  });
  it('reaches every state, keeps the last answer while it reads again, and drops it when told to start again', () => {
    const states = new Set(steps().map((st) => JSON.stringify(st.state.value)));
    expect([...states].sort()).toEqual(['"failed"', '"loading"', '"ready"']);
    expect(paths().some((p) => p.path.state.matches('loading') && selectReadOutput(p.path.state) !== null)).toBe(true);
    for (const { event, state, before } of steps()) {
      if (event.type === 'read.restart') expect(selectReadOutput(state)).toBeNull();
      if (before?.matches('ready') && event.type === 'live.due') expect(state.context.output).toEqual(before.context.output);
    }
  });

  it('live: owes a read only while one is on its way, and a change never starts a read by itself (only the end of the wait does)', () => {
    for (const { event, state, before } of steps()) {
      if (state.context.owed) expect(state.matches('loading')).toBe(true);
      if (before && event.type === 'read.changed') expect(state.value).toEqual(before.value);
    }
    expect(steps().some((st) => st.state.context.owed)).toBe(true);
  });

  it('live: a notice is not sent while the wait is on its way, where it would change nothing; otherwise it is a change (a plain reading reloads)', () => {
    expect(steps().some((st) => st.state.context.waiting)).toBe(true);
    for (const { state } of steps()) {
      expect(readingNotice(state, false)).toEqual({ type: 'read.reload' });
      if (!state.context.waiting) expect(readingNotice(state, true)).toEqual({ type: 'read.changed' });
      else {
        expect(readingNotice(state, true)).toBeNull();
        const [next] = transition(readingMachine, state, { type: 'read.changed' });
        expect([next.value, next.context]).toEqual([state.value, state.context]);
      }
    }
  });

  it('live: a burst of notices during a wait sends the reading one event, and it reads again once the wait is over', async () => {
    const controls = createControls();
    const clock = new SimulatedClock();
    const received: string[] = [];
    const actor = createActor(readingMachine.provide({ actors: { read: controls.logic() } }), {
      clock,
      inspect: (e: InspectionEvent) => {
        if (e.type === '@xstate.event' && e.actorRef === actor) received.push(e.event.type);
      },
    } as never);
    actor.start();
    await controls.settle('read', 'done', { alarms: 1 });
    // what useReading does with each notice
    const heard = () => {
      const e = readingNotice(actor.getSnapshot(), true);
      if (e) actor.send(e);
    };
    for (let i = 0; i < 1000; i++) heard();
    expect(received.filter((t) => t === 'read.changed')).toHaveLength(1);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    clock.increment(DASHBOARD_LIVE_MS);
    await flush();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(selectReadOutput(actor.getSnapshot())).toEqual({ alarms: 1 });
    actor.stop();
  });

  it(`on the real actor along every generated path: the read gets the machine's input, or the one a restart brought`, async () => {
    for (const p of paths()) {
      let asked: Array<{ input: unknown }> = [];
      await replayEdgePath(
        model,
        events,
        (controls) => {
          asked = controls.inputs;
          return readingMachine.provide({ actors: { read: controls.logic() } }) as typeof readingMachine;
        },
        p,
        { 'live.due': DASHBOARD_LIVE_MS },
        input,
      );
      // the read gets the machine's input, or the one a restart brought
      const restarted = p.path.steps.some((st) => st.event.type === 'read.restart' && st.event.input);
      for (const a of asked) expect(restarted ? [input, { zoneId: 4 }] : [input]).toContainEqual(a.input);
      const last = p.path.state;
      expect(selectReadFailed(last)).toBe(last.matches('failed'));
      expect(selectReadBusy(last)).toBe(last.matches('loading'));
    }
  });
});
