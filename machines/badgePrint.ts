// Printing one visitor's badge (issue 5): the desktop companion prints it, then the server records when, so
// the visit shows "badge printed" on every console. One print at a time; a failure can be retried, and a
// printed badge can be printed again (a lost or smudged badge).
import type { Sentence } from '../contract/messages';
import { assign, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import type { BadgeVisitor } from '../contract';
import { invariants } from './badgePrint.invariants';
import { errorSaid, notProvided } from './notProvided';

export interface BadgePrintInput {
  visitorId: number;
  visitor: BadgeVisitor;
  /** When the badge was last printed, if it was. */
  printedAt: string | null;
}
export interface BadgePrintContext extends BadgePrintInput {
  error: string | Sentence | null;
}
export type BadgePrintEvent = { type: 'badge.print' };

export const badgePrintMachine = lazySetup({
  types: { context: {} as BadgePrintContext, events: {} as BadgePrintEvent, input: {} as BadgePrintInput },
  actors: {
    /** Companion print, then the server's record; resolves with the recorded print time. */
    print: notProvided<string, { visitorId: number; visitor: BadgeVisitor }>('print'),
  },
}).createMachine({
  id: 'badgePrint',
  context: ({ input }) => ({ ...input, error: null }),
  initial: 'idle',
  meta: { invariants: invariants.machine },
  states: {
    idle: { on: { 'badge.print': 'printing' } },
    printing: {
      tags: ['busy'],
      meta: { invariants: invariants.printing },
      invoke: {
        id: 'print',
        src: 'print',
        input: ({ context }) => ({ visitorId: context.visitorId, visitor: context.visitor }),
        onDone: { target: 'printed', actions: assign({ printedAt: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorSaid(event.error, 'The badge could not be printed.') }) },
      },
    },
    printed: { meta: { invariants: invariants.printed }, on: { 'badge.print': 'printing' } },
    failed: { meta: { invariants: invariants.failed }, on: { 'badge.print': 'printing' } },
  },
});

export type BadgePrintSnapshot = SnapshotFrom<typeof badgePrintMachine>;
export type BadgePrintActor = ActorRefFrom<typeof badgePrintMachine>;

export const selectBadgeIsPrinting = (s: BadgePrintSnapshot) => s.hasTag('busy');
export const selectBadgeError = (s: BadgePrintSnapshot) => (s.matches('failed') ? s.context.error : null);
export const selectBadgePrintedAt = (s: BadgePrintSnapshot) => s.context.printedAt;
