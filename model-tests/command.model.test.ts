// Model-based test of the one-command-at-a-time machine: every edge on the real machine with a fake `run`.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { commandMachine, selectCommandError, selectRunningCommand, type CommandSnapshot } from '../machines/command';
import { drive, edgePaths, onDemand, expectOracle, onlyInvoked } from './harness';

describe('command machine model', () => {
  const events = [
    { type: 'command.run', command: 'sign-in' },
    { type: 'command.run', command: 'sign-out' },
    { type: 'xstate.done.actor.run', output: { id: 3, status: 'on-site' } },
    { type: 'xstate.error.actor.run', error: new Error('Only a visitor who is on site can be signed out') },
  ] as any[];
  const serialize = (s: CommandSnapshot) => JSON.stringify([s.value, s.context.command, s.context.result !== null, s.context.error !== null]);
  const model = new TestModel(commandMachine as any, { events: onlyInvoked(events) as any, serializeState: serialize as any, limit: 1000 });
  const paths = onDemand(() => edgePaths(model, commandMachine, serialize, []));

  it('keeps the invariants of its states (command.invariants.ts) and its rules at every step of the generated paths', () => {
    expectOracle(
      paths(),
      {
        'a run from a resting state names the command asked for': ({ before, event, after }) =>
          event.type === 'command.run' && !before.matches('running') ? after.matches('running') && after.context.command === event.command : undefined,
        'an answer is kept as the result': ({ event, after }) =>
          event.type === 'xstate.done.actor.run' ? JSON.stringify(after.context.result) === JSON.stringify(event.output) : undefined,
        "a failure's message is the one shown": ({ event, after }) =>
          event.type === 'xstate.error.actor.run' ? after.context.error === event.error.message : undefined,
      },
      5,
    );
  });
  it('reaches every state, and a command never starts while one runs', () => {
    const states = new Set(paths().flatMap((p) => p.path.steps.map((st) => JSON.stringify(st.state.value))));
    expect([...states].sort()).toEqual(['"done"', '"failed"', '"idle"', '"running"']);
    let checked = 0; // a loop that met no such step would have asserted nothing
    for (const p of paths())
      p.path.steps.forEach((st, i) => {
        if (i > 0 && p.path.steps[i - 1].state.matches('running') && st.event.type === 'command.run') {
          expect(st.state.context.command).toBe(p.path.steps[i - 1].state.context.command);
          checked++;
        }
      });
    expect(checked).toBeGreaterThan(0);
  });
  it(`on the real actor along every generated path: each outcome, and only an outcome, is emitted once with its command`, async () => {
    const met = { 'a command run': 0 };
    for (const p of paths()) {
      await drive(model, commandMachine, undefined, events, p, ({ controls, event, emitted }, step) => {
        if (event.type === 'command.run' && controls.inputs.length) {
          met['a command run']++;
          expect(controls.inputs.at(-1)?.input).toEqual({ command: expect.any(String) });
        }
        // each outcome, and only an outcome, is emitted once with its command: the answer, or why it failed
        const answers = p.path.steps
          .slice(1, step + 1)
          .flatMap<object>((st, i) =>
            !p.path.steps[i].state.matches('running')
              ? []
              : st.event.type === 'xstate.done.actor.run'
                ? [{ type: 'command.done', command: p.path.steps[i].state.context.command, result: st.event.output }]
                : st.event.type === 'xstate.error.actor.run'
                  ? [{ type: 'command.failed', command: p.path.steps[i].state.context.command, error: 'Only a visitor who is on site can be signed out' }]
                  : [],
          );
        expect(emitted).toEqual(answers);
      });
      const last = p.path.state;
      expect(selectRunningCommand(last)).toBe(last.matches('running') ? last.context.command : null);
      expect(selectCommandError(last) !== null).toBe(last.matches('failed'));
    }
    // each conditional check above met its case at least once (a loop that met none would have asserted nothing)
    expect(Object.entries(met).filter(([, n]) => n === 0)).toEqual([]);
  });
});
