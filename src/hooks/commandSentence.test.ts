// Issue 48: a command the server refuses with a sentence (its key and values) carries that sentence out of the command
// machine, and the screen's toast says it by its key, not by finding its English again.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { commandMachine, type CommandEmitted } from '../../machines/command';
import { ApiError } from '../api/errors';
import { setLocale } from '../i18n';
import { failureText } from './useCommand';

describe("a refused command's words", () => {
  it('travel with their key and values to the toast, said in zh-CN by the key', async () => {
    const body = { status: 409, error: 'Conflict', message: 'That person is not inside Vault', code: 'access.notInside', values: { zone: 'Vault' } };
    const actor = createActor(
      commandMachine.provide({
        actors: {
          run: fromPromise<unknown, { command: string; input?: unknown }>(async () => {
            throw new ApiError({ status: 409, message: body.message, body });
          }),
        },
      }),
    ).start();
    const emitted: CommandEmitted[] = [];
    actor.on('command.failed', (e) => emitted.push(e));
    actor.send({ type: 'command.run', command: 'signOut' });
    await new Promise<void>((resolve) => actor.subscribe((s) => s.matches('failed') && resolve()));
    expect(emitted).toEqual([
      {
        type: 'command.failed',
        command: 'signOut',
        error: 'That person is not inside Vault',
        sentence: { message: body.message, code: 'access.notInside', values: { zone: 'Vault' } },
      },
    ]);
    await setLocale('zh-CN');
    expect(failureText(emitted[0] as { error: string })).toBe('此人不在 Vault 内');
    // said by its key: a sentence whose English nobody noted is said all the same
    expect(
      failureText({
        error: 'That person is not inside Hall',
        sentence: { message: 'That person is not inside Hall', code: 'access.notInside', values: { zone: 'Hall' } },
      }),
    ).toBe('此人不在 Hall 内');
    await setLocale('en');
    expect(failureText(emitted[0] as { error: string })).toBe('That person is not inside Vault');
    actor.stop();
  });
});
