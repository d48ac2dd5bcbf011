// What holds in each state of the one-answer read machine (./reading.ts), written apart from its transitions and read
// by nothing in it: its states' `meta`. The model test checks them at every step of every generated path
// (model-tests/reading.model.test.ts, with model-tests/harness.ts).

/** The part of the snapshot the invariants read (not imported from ./reading: that imports this file). */
type Held = {
  context: { output: unknown; error: string | { message: string } | null; waiting: boolean; owed: boolean; stale: boolean };
  children: Record<string, unknown>;
  hasTag: (tag: string) => boolean;
};
const reads = (s: Held) => 'read' in s.children;

export const invariants = {
  machine: { 'busy exactly while a read is on its way': (s: Held) => s.hasTag('busy') === reads(s) },
  loading: { 'a read is on its way': (s: Held) => reads(s) },
  ready: { 'the answer is in: nothing owed, nothing stale, no error': ({ context: c }: Held) => !c.owed && !c.stale && c.error === null },
  failed: {
    'why it failed is said, nothing owed': ({ context: c }: Held) =>
      !!c.error && (typeof c.error === 'string' ? c.error : c.error.message).trim() !== '' && !c.owed && !c.stale,
  },
};
