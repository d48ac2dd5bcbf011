// Model-based test of a restore watched from the backup screen (machines/restore.ts): every edge on the real machine
// with a controllable list read and a simulated clock. The page asks how it went every RESTORE_POLL_MS until the
// server has recorded an outcome for this backup: a failed read (the server away) or a pending or other backup's
// outcome is asked again; each ending is emitted exactly once; a late server is said to be late and still waited for.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import type { BackupList, RestoreOutcome, RestoreStarted } from '../contract';
import {
  RESTORE_LATE_MS,
  RESTORE_POLL_MS,
  endingOf,
  restoreMachine,
  selectRestoreEnding,
  selectRestoreLate,
  selectRestoring,
  type RestoreSnapshot,
} from '../machines/restore';
import { edgePaths, onDemand, expectOracle, onlyInvoked, replayEdgePath } from './harness';

const started: RestoreStarted = { restoring: true, backupId: '20261127T101500Z-abc123', before: '20261127T120000Z-zzz999', message: 'The server restarts' };
const outcome = (o: Partial<RestoreOutcome>): RestoreOutcome => ({
  backupId: started.backupId,
  at: '2026-11-27T12:00:00.000Z',
  by: 'admin',
  restored: true,
  problem: null,
  ...o,
});
const list = (lastRestore: RestoreOutcome | null): BackupList => ({ available: true, engine: 'pglite', reason: null, items: [], lastRestore });
const LISTS = {
  restored: list(outcome({})),
  notOpened: list(outcome({ restored: false, problem: 'The backup did not open (bad tar): the database is as it was.' })),
  notOpenedUnsaid: list(outcome({ restored: false, problem: null })),
  pending: list(outcome({ restored: null })),
  another: list(outcome({ backupId: '20261120T101500Z-other1' })),
  none: list(null),
};
const LATE = 'xstate.after.late.restore.restoring';
const POLL = 'xstate.after.poll.restore.restoring.waiting';

describe('restore model', () => {
  const events = [
    { type: 'restore.started', started },
    ...Object.values(LISTS).map((output) => ({ type: 'xstate.done.actor.list', output })),
    { type: 'xstate.error.actor.list', error: new Error('Failed to fetch') },
    { type: POLL },
    { type: LATE },
  ] as any[];
  // each clock event only while its timer runs: the poll while waiting; the late notice once per restore, offered
  // while a read is out (moving the clock a minute while waiting would run the poll's timer too, as a real minute would)
  const offered = (s: RestoreSnapshot) =>
    onlyInvoked(events)(s as any).filter(
      (e: { type: string }) =>
        (e.type !== LATE || (s.matches({ restoring: 'asking' }) && !s.context.late)) && (e.type !== POLL || s.matches({ restoring: 'waiting' })),
    );
  const serialize = (s: RestoreSnapshot) => JSON.stringify([s.value, s.context.started !== null, s.context.late, s.context.ending]);
  const model = new TestModel(restoreMachine as any, { events: offered as any, serializeState: serialize as any, limit: 2000 } as any);
  const paths = onDemand(() => edgePaths(model, restoreMachine, serialize, ['xstate.emit']));
  const steps = () => paths().flatMap((p) => p.path.steps.map((st, i) => ({ ...st, before: i > 0 ? p.path.steps[i - 1].state : null })));

  it('keeps the invariants of its states (restore.invariants.ts) at every step of the generated paths; an ending is announced once, as kept', () => {
    expectOracle(
      paths(),
      {
        'a restore that ends announces the ending it keeps, once': ({ before, after, effects }) =>
          before.hasTag('restoring') && !after.hasTag('restoring')
            ? effects.length === 1 &&
              JSON.stringify((effects[0].params as { event: { ending: unknown } }).event.ending) === JSON.stringify(after.context.ending)
            : undefined,
        'a new restore forgets the last ending and lateness': ({ before, event, after }) =>
          event.type === 'restore.started' && before.matches('idle') ? after.context.ending === null && !after.context.late : undefined,
      },
      5,
    );
  });
  it('reaches every state and every ending', () => {
    const states = new Set(steps().map((st) => JSON.stringify(st.state.value)));
    expect([...states].sort()).toEqual(['"idle"', '{"restoring":"asking"}', '{"restoring":"waiting"}']);
    const endings = new Set(steps().map((st) => JSON.stringify(selectRestoreEnding(st.state))));
    expect([...endings].sort()).toEqual([
      'null',
      '{"kind":"notRestored","problem":"The backup did not open (bad tar): the database is as it was."}',
      '{"kind":"notRestored","problem":"The backup did not open: the database is as it was."}',
      '{"kind":"restored"}',
    ]);
  });

  it('ends only on an outcome of this backup that is no longer pending; anything else is asked again', () => {
    const outcomes = { ended: 0, askedAgain: 0 }; // both must have been met, else the loop asserted nothing of them
    for (const { event, state, before } of steps()) {
      if (!before?.matches({ restoring: 'asking' })) continue;
      const ending = event.type === 'xstate.done.actor.list' ? endingOf(started, event.output) : null;
      if (event.type.startsWith('xstate.done.actor.list') || event.type.startsWith('xstate.error.actor.list')) {
        expect(state.matches('idle')).toBe(ending !== null);
        if (!ending) expect(state.matches({ restoring: 'waiting' })).toBe(true);
        outcomes[ending ? 'ended' : 'askedAgain']++;
      }
    }
    expect(outcomes.ended).toBeGreaterThan(0);
    expect(outcomes.askedAgain).toBeGreaterThan(0);
    for (const k of ['pending', 'another', 'none'] as const) expect(endingOf(started, LISTS[k])).toBeNull();
  });

  it('asks only after RESTORE_POLL_MS of waiting, and says the server is late after RESTORE_LATE_MS', () => {
    for (const { event, state, before } of steps()) {
      if (before?.matches({ restoring: 'waiting' }) && state.matches({ restoring: 'asking' })) expect(event.type).toBe(POLL);
    }
    const late = steps().filter((st) => st.event.type === LATE);
    expect(late.length).toBeGreaterThan(0);
    for (const st of late) {
      expect(selectRestoreLate(st.state)).toBe(true);
      expect(selectRestoring(st.state)).toEqual(started);
    }
    const fresh = steps().filter((x) => x.event.type === 'restore.started' && x.before?.matches('idle'));
    expect(fresh.length).toBeGreaterThan(0);
    for (const st of fresh) expect(selectRestoreLate(st.state)).toBe(false);
    expect([RESTORE_POLL_MS, RESTORE_LATE_MS]).toEqual([2_000, 60_000]);
  });

  it(`on the real actor along every generated path: each ending is emitted exactly once, and the restore is shown while it runs`, async () => {
    for (const p of paths()) {
      await replayEdgePath(model, events, (controls) => restoreMachine.provide({ actors: { list: controls.logic() } }) as typeof restoreMachine, p, {
        [LATE]: RESTORE_LATE_MS,
        [POLL]: RESTORE_POLL_MS,
      });
      // each ending is emitted exactly once, when an answer ends the restore (replayEdgePath compares every emitted event)
      const ended = p.path.steps.filter((st, i) => i > 0 && p.path.steps[i - 1].state.matches({ restoring: 'asking' }) && st.state.matches('idle')).length;
      const emitted = p.effects.flat().filter((a) => (a.params as { event: { type: string } }).event.type === 'restore.settled').length;
      expect(emitted).toBe(ended);
      const last = p.path.state;
      expect(selectRestoring(last) !== null).toBe(!last.matches('idle'));
    }
  });
});
