// The operator command's rules (machines/command.ts) that its model test let pass, written down apart from the machine
// (the mutation run of 2026-12-03, docs/TESTING.md "Mutation score"): the screen's `run` gets the command's name, and
// its input exactly when the command brought one; a failure without words says 'The command failed.', and the failed
// notice carries the command and those words. Driven on the real actor with a controllable `run`.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { commandMachine, type CommandEmitted } from '../machines/command';
import { createControls } from './harness';

function command() {
  const controls = createControls();
  const emitted: CommandEmitted[] = [];
  const actor = createActor(commandMachine.provide({ actors: { run: controls.logic() } }));
  actor.on('*', (e) => emitted.push(e as CommandEmitted));
  actor.start();
  return { controls, actor, emitted, s: () => actor.getSnapshot() };
}

describe('operator command rules', () => {
  it('run gets the command by name, with its input only when the command brought one (a row id, or a falsy 0 or empty text)', async () => {
    const { controls, actor } = command();
    actor.send({ type: 'command.run', command: 'signOut' });
    expect(controls.pending.get('run')?.input).toStrictEqual({ command: 'signOut' });
    await controls.settle('run', 'done', { ok: true });
    for (const input of [{ visitId: 7 }, 0, '']) {
      actor.send({ type: 'command.run', command: 'signIn', input });
      expect(controls.pending.get('run')?.input).toStrictEqual({ command: 'signIn', input });
      await controls.settle('run', 'done', { ok: true });
    }
  });
  it("a command refused says the server's words, or 'The command failed.', and the failed notice carries the command and those words", async () => {
    const { controls, actor, emitted, s } = command();
    actor.send({ type: 'command.run', command: 'signIn', input: { visitId: 7 } });
    await controls.settle('run', 'error', new Error(''));
    expect(s().value).toBe('failed');
    expect(s().context.error).toBe('The command failed.');
    actor.send({ type: 'command.run', command: 'signOut' });
    await controls.settle('run', 'error', new Error('Visit closed'));
    expect(emitted).toEqual([
      { type: 'command.failed', command: 'signIn', error: 'The command failed.' },
      { type: 'command.failed', command: 'signOut', error: 'Visit closed' },
    ]);
  });
});
