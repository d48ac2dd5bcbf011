// A screen's one-command-at-a-time actor (machines/command.ts) with what each outcome says: a success toast in the
// screen's words (`said`: null for none) and a failure toast with the server's reason. `onDone` follows a success
// (read the list again). The actor emits each outcome once, so nothing here compares snapshots.
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import { TOAST_MS } from '../../contract';
import type { commandMachine } from '../../machines/command';
import { say, saySentence, tx } from '../i18n';
import type { Sentence } from '../../contract';
import { notify } from './console';
import type { LogicIdOf, ResourceView } from './wiring';
import { useViewActor } from './useViewActor';

export type CommandSaid = (command: string, result: unknown) => { title: string; message: string } | null;

/** A command actor's id: a registered command logic, or a resource list's `commands:<resource>`. */
export type CommandId = LogicIdOf<typeof commandMachine> | `${Extract<ResourceView, 'commands'>}:${string}`;

/** A failed command's words in the console's language: by the key of the sentence it carries (issue 48), else its text. */
export const failureText = (e: { error: string; sentence?: Sentence }): string => (e.sentence ? saySentence(e.sentence) : say(e.error));

export function useCommand(id: CommandId, said: CommandSaid, onDone?: (command: string, result: unknown) => void): ActorRefFrom<typeof commandMachine> {
  const actor = useViewActor(id as LogicIdOf<typeof commandMachine>) as unknown as ActorRefFrom<typeof commandMachine>;
  const latest = useRef({ said, onDone });
  latest.current = { said, onDone };
  useEffect(() => {
    const done = actor.on('command.done', ({ command, result }) => {
      const m = latest.current.said(command, result);
      if (m) notify({ intent: 'success', ...m, timeoutMs: TOAST_MS });
      latest.current.onDone?.(command, result);
    });
    const failed = actor.on('command.failed', (e) =>
      notify({ intent: 'danger', title: tx('That did not work'), message: failureText(e), timeoutMs: TOAST_MS }),
    );
    return () => {
      done.unsubscribe();
      failed.unsubscribe();
    };
  }, [actor]);
  return actor;
}
