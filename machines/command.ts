// One operator command at a time on a screen (sign a visitor in or out, …): idle → running → done | failed,
// the last result kept for the view, a failure's message shown until the next try. What a command does is
// the `run` actor the screen provides; the machine only keeps order (no second command while one runs). Each
// answer is emitted (`command.done`) for the view to say in a toast or to read its list again.
import { assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { errorText, notProvided } from './notProvided';

export interface CommandContext { command: string | null; result: unknown; error: string | null }
export type CommandEvent = { type: 'command.run'; command: string };
export type CommandEmitted = { type: 'command.done'; command: string; result: unknown };

export const commandMachine = setup({
  types: { context: {} as CommandContext, events: {} as CommandEvent, emitted: {} as CommandEmitted },
  actors: { run: notProvided<unknown, { command: string }>('run') },
}).createMachine({
  id: 'command',
  context: { command: null, result: null, error: null },
  initial: 'idle',
  states: {
    idle: { on: { 'command.run': { target: 'running', actions: assign({ command: ({ event }) => event.command }) } } },
    running: {
      tags: ['busy'],
      invoke: {
        id: 'run',
        src: 'run',
        input: ({ context }) => ({ command: context.command ?? '' }),
        onDone: {
          target: 'done',
          actions: [assign({ result: ({ event }) => event.output, error: null }), emit(({ context, event }) => ({ type: 'command.done' as const, command: context.command ?? '', result: event.output }))],
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error, 'The command failed.') }) },
      },
    },
    done: { on: { 'command.run': { target: 'running', actions: assign({ command: ({ event }) => event.command }) } } },
    failed: { on: { 'command.run': { target: 'running', actions: assign({ command: ({ event }) => event.command, error: null }) } } },
  },
});

export type CommandSnapshot = SnapshotFrom<typeof commandMachine>;
export type CommandActor = ActorRefFrom<typeof commandMachine>;
/** Which command runs now (a spinner on its button), or null. */
export const selectRunningCommand = (s: CommandSnapshot) => (s.hasTag('busy') ? s.context.command : null);
export const selectCommandError = (s: CommandSnapshot) => (s.matches('failed') ? s.context.error : null);
export const selectCommandResult = (s: CommandSnapshot) => s.context.result;
