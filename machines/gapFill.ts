// The events screen's gap fill: after every reconnect (and wake from sleep) the event socket says it resynced, and the
// events stored while the console was not listening are read from REST, after the newest id the screen shows, so the
// live list has no hole (ids are monotonic on the server: append-only, persisted before publishing). Each `gap.fill`
// spawns its own read (the provided `read`, src/system/readActors.ts): reads run side by side, never one at a time and
// never cancelling each other — a read still hanging on the server that went away must not hold back the read after
// it came back (e2e/reconnect.spec.ts). What a read finds is emitted (`gap.filled`) for the screen to show; a failed
// read is dropped (the next resync reads again). Owned by the view (src/app/useViewActor.ts): closing it stops the reads.
import { and, emit, enqueueActions, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Event } from '../contract';
import { notProvided } from './notProvided';

export interface GapFillContext {
  /** the last read's number (a child's id is `read-<n>`) */
  seq: number;
  /** the reads on their way: child id → the id they read after */
  reading: Record<string, number>;
}
/** Read the events stored after `afterId` (the newest the screen shows). */
export type GapFillEvent = { type: 'gap.fill'; afterId: number };
/** The events a read found, oldest first (never an empty list). */
export type GapFillEmitted = { type: 'gap.filled'; events: Event[] };
/** A spawned read's answer (`xstate.done.actor.<id>`) or failure. */
type ReadEvent =
  { type: `xstate.done.actor.${string}`; actorId: string; output: Event[] } | { type: `xstate.error.actor.${string}`; actorId: string; error: unknown };

export const gapFillMachine = setup({
  types: { context: {} as GapFillContext, events: {} as GapFillEvent | ReadEvent, emitted: {} as GapFillEmitted },
  actors: { read: notProvided<Event[], number>('read') },
  guards: {
    // only the reads this machine started count
    ours: ({ context, event }) => 'actorId' in event && event.actorId in context.reading,
    foundSome: ({ event }) => 'output' in event && event.output.length > 0,
  },
  actions: {
    /** a finished read is let go of (spawned children stay in the snapshot until stopped) and no longer counted */
    release: enqueueActions(({ context, event, enqueue }) => {
      if (!('actorId' in event)) return;
      enqueue.stopChild(event.actorId);
      const { [event.actorId]: _done, ...reading } = context.reading;
      enqueue.assign({ reading });
    }),
    say: emit(({ event }) => ({ type: 'gap.filled' as const, events: 'output' in event ? event.output : [] })),
  },
}).createMachine({
  id: 'gapFill',
  context: { seq: 0, reading: {} },
  on: {
    'gap.fill': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'gap.fill') return;
        const id = `read-${context.seq + 1}`;
        enqueue.spawnChild('read', { id, input: event.afterId });
        enqueue.assign({ seq: context.seq + 1, reading: { ...context.reading, [id]: event.afterId } });
      }),
    },
    'xstate.done.actor.*': [
      { guard: and(['ours', 'foundSome']), actions: ['release', 'say'] },
      { guard: 'ours', actions: 'release' },
    ],
    'xstate.error.actor.*': { guard: 'ours', actions: 'release' },
  },
});

export type GapFillSnapshot = SnapshotFrom<typeof gapFillMachine>;
export type GapFillActor = ActorRefFrom<typeof gapFillMachine>;
/** How many reads are on their way. */
export const selectGapReads = (s: GapFillSnapshot) => Object.keys(s.context.reading).length;
