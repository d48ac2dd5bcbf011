// /server/backup-restore [0.7.2.0], owned by the screen: a restore from the moment the server answers that it has
// begun (202) until the console knows how it went. The server's services stop and start again with the backup, and
// the server records the restore's outcome beside the backups (contract RestoreOutcome, the list's `lastRestore`):
// pending while it runs, then restored, or not (the image did not open: the database is as it was). The machine reads
// the list every RESTORE_POLL_MS until that outcome is there for this backup — a read that fails (the server is
// away) is simply tried again — and emits the ending once (`restore.settled`) for the screen's notice. A restore that
// worked ends every console session, this one too: its next read is refused and the console asks for a sign-in (the
// page shows the outcome after it). A server that has not come back after RESTORE_LATE_MS is said to be late; the page
// keeps waiting. Reading, not listening to the socket: a socket that cannot connect again (its session ended) would
// leave the page waiting forever. The list read is the actor the caller provides (src/system/readActors.ts).
import { assign, emit, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import type { BackupList, RestoreOutcome, RestoreStarted } from '../contract';
import { notProvided } from './notProvided';
import { invariants } from './restore.invariants';

/** How long the page waits for the server before it says the restore is taking longer than it should. */
export const RESTORE_LATE_MS = 60_000;
/** How often the page asks the server how the restore went. */
export const RESTORE_POLL_MS = 2_000;

/** How a restore ended, as far as the console could tell. */
export type RestoreEnding =
  | { kind: 'restored' }
  /** the server came back without it (the image did not open, or the server stopped during the restore) */
  | { kind: 'notRestored'; problem: string };

export interface RestoreContext {
  started: RestoreStarted | null;
  late: boolean;
  ending: RestoreEnding | null;
}
export type RestoreEvent = { type: 'restore.started'; started: RestoreStarted };
export type RestoreEmitted = { type: 'restore.settled'; ending: RestoreEnding };

/** What a list read says of the restore that was started: null while it is under way (or the outcome is another's). */
export function endingOf(started: RestoreStarted, list: BackupList): RestoreEnding | null {
  const o: RestoreOutcome | null = list.lastRestore;
  if (!o || o.backupId !== started.backupId || o.restored === null) return null;
  if (o.restored) return { kind: 'restored' };
  return { kind: 'notRestored', problem: o.problem ?? 'The backup did not open: the database is as it was.' };
}

export const restoreMachine = lazySetup({
  types: { context: {} as RestoreContext, events: {} as RestoreEvent, emitted: {} as RestoreEmitted },
  actors: { list: notProvided<BackupList, void>('list') },
  delays: { late: RESTORE_LATE_MS, poll: RESTORE_POLL_MS },
  guards: { settled: ({ context }, output: BackupList) => endingOf(context.started!, output) !== null },
}).createMachine({
  id: 'restore',
  context: { started: null, late: false, ending: null },
  initial: 'idle',
  meta: { invariants: invariants.machine },
  states: {
    // no restore under way (`ending` keeps how the last one went)
    idle: {
      meta: { invariants: invariants.idle },
      on: { 'restore.started': { target: 'restoring', actions: assign({ started: ({ event }) => event.started, late: false, ending: null }) } },
    },
    restoring: {
      tags: ['restoring'],
      meta: { invariants: invariants.restoring },
      initial: 'waiting',
      after: { late: { actions: assign({ late: true }) } },
      states: {
        waiting: { meta: { invariants: invariants.waiting }, after: { poll: 'asking' } },
        // how did it go? (a refused or failed read: not yet known, asked again)
        asking: {
          meta: { invariants: invariants.asking },
          invoke: {
            id: 'list',
            src: 'list',
            onDone: [
              {
                guard: { type: 'settled', params: ({ event }) => event.output },
                target: '#restore.idle',
                actions: [
                  assign({ ending: ({ context, event }) => endingOf(context.started!, event.output) }),
                  emit(({ context, event }) => ({ type: 'restore.settled' as const, ending: endingOf(context.started!, event.output)! })),
                ],
              },
              { target: 'waiting' },
            ],
            onError: 'waiting',
          },
        },
      },
    },
  },
});

export type RestoreSnapshot = SnapshotFrom<typeof restoreMachine>;
export type RestoreActor = ActorRefFrom<typeof restoreMachine>;
/** The restore under way (null: none). */
export const selectRestoring = (s: RestoreSnapshot) => (s.hasTag('restoring') ? s.context.started : null);
/** The server has not come back after RESTORE_LATE_MS. */
export const selectRestoreLate = (s: RestoreSnapshot) => s.hasTag('restoring') && s.context.late;
/** How the last restore ended (null: none yet, or one under way). */
export const selectRestoreEnding = (s: RestoreSnapshot) => (s.hasTag('restoring') ? null : s.context.ending);
