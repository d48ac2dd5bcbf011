// One operator command at a time on a screen (sign a visitor in or out, …): idle → running → done | failed,
// the last result kept for the view, a failure's message shown until the next try. What a command does is
// the `run` actor the screen provides; the machine only keeps order (no second command while one runs). Each
// answer is emitted (`command.done`, `command.failed`) for the view to say in a toast or to read its list again.
import { assign, emit, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import { invariants } from './command.invariants';
import type { Sentence } from '../contract/messages';
import { errorSaid, notProvided } from './notProvided';

export interface CommandContext {
  command: string | null;
  input: unknown;
  result: unknown;
  /** the last failure: its sentence (key and values) when the server said one (issue 48: errorSaid), else its words */
  error: string | Sentence | null;
}
/** `input`: what the command needs besides its name (a row's id, the list's filters), given to `run` as it is. */
export type CommandEvent = { type: 'command.run'; command: string; input?: unknown };
/** A failure's `sentence`: its words with their key and values when the server said them so (an ApiError's), for the
 *  view to say by key (issue 48). */
export type CommandEmitted =
  { type: 'command.done'; command: string; result: unknown } | { type: 'command.failed'; command: string; error: string; sentence?: Sentence };
export const commandMachine = lazySetup({
  types: { context: {} as CommandContext, events: {} as CommandEvent, emitted: {} as CommandEmitted },
  actors: { run: notProvided<unknown, { command: string; input?: unknown }>('run') },
}).createMachine({
  id: 'command',
  context: { command: null, input: undefined, result: null, error: null },
  initial: 'idle',
  meta: { invariants: invariants.machine },
  states: {
    idle: {
      meta: { invariants: invariants.idle },
      on: { 'command.run': { target: 'running', actions: assign({ command: ({ event }) => event.command, input: ({ event }) => event.input }) } },
    },
    running: {
      tags: ['busy'],
      meta: { invariants: invariants.running },
      invoke: {
        id: 'run',
        src: 'run',
        // a running command always has its name (set on command.run) and a failed one its words (set just before the notice)
        input: ({ context }) => (context.input === undefined ? { command: context.command! } : { command: context.command!, input: context.input }),
        onDone: {
          target: 'done',
          actions: [
            assign({ result: ({ event }) => event.output, error: null }),
            emit(({ context, event }) => ({ type: 'command.done' as const, command: context.command!, result: event.output })),
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            assign({ error: ({ event }) => errorSaid(event.error, 'The command failed.') }),
            emit(({ context }) => {
              const said = context.error!;
              return typeof said === 'string'
                ? { type: 'command.failed' as const, command: context.command!, error: said }
                : { type: 'command.failed' as const, command: context.command!, error: said.message, sentence: said };
            }),
          ],
        },
      },
    },
    done: {
      meta: { invariants: invariants.done },
      on: { 'command.run': { target: 'running', actions: assign({ command: ({ event }) => event.command, input: ({ event }) => event.input }) } },
    },
    failed: {
      meta: { invariants: invariants.failed },
      on: { 'command.run': { target: 'running', actions: assign({ command: ({ event }) => event.command, input: ({ event }) => event.input, error: null }) } },
    },
  },
});

export type CommandSnapshot = SnapshotFrom<typeof commandMachine>;
export type CommandActor = ActorRefFrom<typeof commandMachine>;
/** Which command runs now (a spinner on its button), or null. */
export const selectRunningCommand = (s: CommandSnapshot) => (s.hasTag('busy') ? s.context.command : null);
export const selectCommandError = (s: CommandSnapshot) => (s.matches('failed') ? s.context.error : null);
export const selectCommandResult = (s: CommandSnapshot) => s.context.result;
