// Model-based test of the live one-answer read (the dashboard's figures): every edge on the real machine with a
// controllable `read` and a simulated clock — notices during a wait join it, a wait that ends while a read is on its
// way is owed and read once the answer is in, a restart drops the last answer.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { DASHBOARD_LIVE_MS } from '../contract';
import { liveReadingMachine, type LiveReadingSnapshot } from '../machines/liveReading';
import { selectReadBusy, selectReadFailed, type ReadingSnapshot } from '../machines/reading';
import { edgePaths, onlyInvoked, replayEdgePath } from './harness';

describe('live one-answer read model', () => {
  const events = [
    { type: 'read.reload' },
    { type: 'read.restart' },
    { type: 'read.changed' },
    { type: 'live.due' },
    { type: 'xstate.done.actor.read', output: { alarms: 2 } },
    { type: 'xstate.error.actor.read', error: new Error('offline') },
  ] as any[];
  // the clock's event comes only while a wait is on its way (the machine raised it, delayed)
  const offered = (s: LiveReadingSnapshot) => onlyInvoked(events)(s as any).filter((e: { type: string }) => e.type !== 'live.due' || s.context.waiting);
  const serialize = (s: LiveReadingSnapshot) => JSON.stringify([s.value, s.context.output !== null, s.context.error !== null, s.context.waiting, s.context.owed]);
  const model = new TestModel(liveReadingMachine as any, { events: offered as any, serializeState: serialize as any, limit: 2000 } as any);
  const paths = edgePaths(model, liveReadingMachine, serialize, []);

  it('reaches every state, owes a read only while one is on its way, and keeps the last answer while reading again', () => {
    const states = new Set(paths.flatMap((p) => p.path.steps.map((st) => JSON.stringify(st.state.value))));
    expect([...states].sort()).toEqual(['"failed"', '"loading"', '"ready"']);
    for (const p of paths) p.path.steps.forEach((st, i) => {
      if (st.state.context.owed) expect(st.state.matches('loading')).toBe(true);
      const before = i > 0 ? p.path.steps[i - 1].state : null;
      // a notice never starts a read by itself: only the end of the wait does
      if (before && st.event.type === 'read.changed') expect(st.state.value).toEqual(before.value);
      if (st.event.type === 'read.restart') expect(st.state.context.output).toBeNull();
      if (before?.matches('ready') && st.event.type === 'live.due') expect(st.state.context.output).toEqual(before.context.output);
    });
    expect(paths.some((p) => p.path.steps.some((st) => st.state.context.owed))).toBe(true);
  });

  for (const p of paths) {
    it(p.description, async () => {
      await replayEdgePath(model, events, (controls) => liveReadingMachine.provide({ actors: { read: controls.logic() } }) as typeof liveReadingMachine, p, { 'live.due': DASHBOARD_LIVE_MS });
      const last = p.path.state as unknown as ReadingSnapshot;
      expect(selectReadFailed(last)).toBe(p.path.state.matches('failed'));
      expect(selectReadBusy(last)).toBe(p.path.state.matches('loading'));
    });
  }
});
