// Model-based test of ending sessions (Monitor sessions screens): every edge on the real machine with a fake
// `endSessions`; nothing is ended without a confirmation, and the screen hears `sessions.ended` once per success.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, waitFor } from 'xstate';
import { isValidSessionIds, selectEndError, selectIsConfirming, selectPendingIds, sessionEndMachine, type SessionEndSnapshot } from '../machines/sessionEnd';
import { drive, edgePaths, onDemand, expectOracle, onlyInvoked } from './harness';

describe('sessionEnd machine model', () => {
  const events = [
    { type: 'sessions.end', ids: [4] },
    { type: 'sessions.end', ids: [4, 7, 4] },
    { type: 'sessions.end', ids: [] },
    { type: 'sessions.end', ids: [0] },
    { type: 'sessions.confirm' },
    { type: 'sessions.cancel' },
    { type: 'xstate.done.actor.endSessions', output: { ended: 2, alreadyEnded: 0 } },
    { type: 'xstate.error.actor.endSessions', error: new Error('That is your own current session: sign out instead; none was ended') },
  ] as any[];
  const serialize = (s: SessionEndSnapshot) => JSON.stringify([s.value, s.context.ids, s.context.error !== null, s.context.result !== null]);
  const model = new TestModel(sessionEndMachine as any, { events: onlyInvoked(events) as any, serializeState: serialize as any, limit: 1000 });
  const paths = onDemand(() => edgePaths(model, sessionEndMachine, serialize, []));

  it('keeps the invariants of its states (sessionEnd.invariants.ts) at every step of the generated paths; a request is confirmed as asked', () => {
    expectOracle(
      paths(),
      {
        'a valid request from a resting state waits for confirmation with its ids, each once': ({ before, event, after }) =>
          event.type === 'sessions.end' && (before.matches('idle') || before.matches('failed')) && isValidSessionIds(event.ids)
            ? after.matches('confirming') && JSON.stringify(after.context.ids) === JSON.stringify([...new Set(event.ids as number[])])
            : undefined,
        'an invalid request starts nothing and says so': ({ before, event, after }) =>
          event.type === 'sessions.end' && !isValidSessionIds(event.ids) && !before.matches('confirming') && !before.matches('ending')
            ? JSON.stringify(after.value) === JSON.stringify(before.value) && !!after.context.error
            : undefined,
      },
      6,
    );
  });
  it('reaches every state, and only a confirmation starts ending', () => {
    const states = new Set(paths().flatMap((p) => p.path.steps.map((st) => JSON.stringify(st.state.value))));
    expect([...states].sort()).toEqual(['"confirming"', '"ending"', '"failed"', '"idle"']);
    let starts = 0; // a loop that met no start of ending would have asserted nothing
    for (const p of paths())
      p.path.steps.forEach((st, i) => {
        if (i > 0 && st.state.matches('ending') && !p.path.steps[i - 1].state.matches('ending')) {
          expect(st.event.type).toBe('sessions.confirm');
          starts++;
        }
      });
    expect(starts).toBeGreaterThan(0);
  });

  it('accepts only a non-empty list of positive whole ids', () => {
    expect(isValidSessionIds([1, 2])).toBe(true);
    for (const bad of [[], [0], [1.5], ['1'], null, 3]) expect(isValidSessionIds(bad)).toBe(false);
  });

  it(`on the real actor along every generated path: the end is asked with the confirmed ids, and its answer emitted once`, async () => {
    const met = { 'an end confirmed': 0, 'an end answered': 0 };
    for (const p of paths()) {
      await drive(model, sessionEndMachine, undefined, events, p, ({ emitted, controls, event, before }, step) => {
        if (event.type === 'sessions.confirm' && before?.matches('confirming')) {
          met['an end confirmed']++;
          expect(controls.inputs.at(-1)?.input).toEqual({ ids: before.context.ids });
        }
        if (event.type === 'xstate.done.actor.endSessions') {
          met['an end answered']++;
          expect(emitted.at(-1)).toMatchObject({ type: 'sessions.ended', ids: before!.context.ids, result: event.output });
        }
        expect(emitted.length).toBe(p.path.steps.slice(0, step + 1).filter((st) => st.event.type === 'xstate.done.actor.endSessions').length);
      });
      const last = p.path.state;
      expect(selectIsConfirming(last)).toBe(last.matches('confirming') || last.matches('ending'));
      expect(selectPendingIds(last).length > 0).toBe(last.matches('confirming') || last.matches('ending'));
      expect(selectEndError(last) !== null).toBe(last.context.error !== null);
    }
    // each conditional check above met its case at least once (a loop that met none would have asserted nothing)
    expect(Object.entries(met).filter(([, n]) => n === 0)).toEqual([]);
  });

  it('keeps a refusal the server said with its key as that sentence (issue 48), so the screen says it by its key', async () => {
    const said = { message: 'Session 4 not found', code: 'record.notFound', values: { what: 'Session 4' } };
    const refusing = sessionEndMachine.provide({
      actors: {
        endSessions: fromPromise<{ ended: number; alreadyEnded: number }, { ids: number[] }>(async () => {
          throw Object.assign(new Error(said.message), { sentence: said });
        }),
      },
    });
    const actor = createActor(refusing).start();
    actor.send({ type: 'sessions.end', ids: [4] });
    actor.send({ type: 'sessions.confirm' });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(selectEndError(failed)).toEqual(said);
    actor.stop();
  });
});
