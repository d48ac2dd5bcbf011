// The operator command's rules (machines/command.ts) that its model test let pass, written down apart from the machine
// (the mutation run of 2026-12-03, docs/TESTING.md "Mutation score"): the screen's `run` gets the command's name, and
// its input exactly when the command brought one; a failure without words says 'The command failed.', and the failed
// notice carries the command and those words, and the error's sentence only when it is a whole one of those words.
// Driven on the real actor with a controllable `run`.
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

  it("the failed notice carries the error's sentence (issue 48) only when it is a whole sentence of those very words", async () => {
    const sentence = { message: 'Visit closed', code: 'visit.closed', values: { visitId: 7 } };
    const cases: Array<[string, unknown, string, boolean]> = [
      ['a whole sentence of the words', { message: 'Visit closed', sentence }, 'Visit closed', true],
      ['other words than the sentence', { message: 'Visit is closed', sentence }, 'Visit is closed', false],
      ['a code that is not text', { message: 'Visit closed', sentence: { ...sentence, code: 42 } }, 'Visit closed', false],
      ['no values', { message: 'Visit closed', sentence: { message: 'Visit closed', code: 'visit.closed' } }, 'Visit closed', false],
      ['values null', { message: 'Visit closed', sentence: { ...sentence, values: null } }, 'Visit closed', false],
      ['values that are text', { message: 'Visit closed', sentence: { ...sentence, values: 'visitId=7' } }, 'Visit closed', false],
      ['no sentence', new Error('Visit closed'), 'Visit closed', false],
      ['a failure that is null', null, 'The command failed.', false],
    ];
    for (const [what, failure, words, carried] of cases) {
      const { controls, actor, emitted } = command();
      actor.send({ type: 'command.run', command: 'signOut' });
      await controls.settle('run', 'error', failure);
      const notice = { type: 'command.failed', command: 'signOut', error: words, ...(carried ? { sentence } : {}) };
      expect([what, emitted]).toEqual([what, [notice]]);
      // and the failed state keeps the sentence itself (the view says it by its key), else the words
      expect([what, actor.getSnapshot().context.error]).toEqual([what, carried ? sentence : words]);
    }
  });
});
