// What holds in each state of the restore machine (./restore.ts), written apart from its transitions and read by nothing
// in it: its states' `meta`. The model test checks them at every step of every generated path
// (model-tests/restore.model.test.ts, with model-tests/harness.ts).

/** The part of the snapshot the invariants read (not imported from ./restore: that imports this file). */
type Held = {
  context: { started: { backupId: unknown } | null; late: boolean; ending: { kind: 'restored' } | { kind: 'notRestored'; problem: string } | null };
  children: Record<string, unknown>;
  hasTag: (tag: string) => boolean;
};
const asks = (s: Held) => 'list' in s.children;

export const invariants = {
  machine: {
    'an ending is restored, or not restored with the problem in words': ({ context: { ending: e } }: Held) =>
      e === null || e.kind === 'restored' || (e.kind === 'notRestored' && e.problem.trim() !== ''),
  },
  idle: { 'no restore shown, nothing asked': (s: Held) => !s.hasTag('restoring') && !asks(s) },
  restoring: {
    'a restore was started and has not ended': (s: Held) => s.hasTag('restoring') && s.context.started !== null && s.context.ending === null,
  },
  waiting: { 'nothing asked while waiting for the next poll': (s: Held) => !asks(s) },
  asking: { 'the list is asked': (s: Held) => asks(s) },
};
