// What holds in each state of the download machine (./download.ts), written apart from its transitions and read by
// nothing in it: its states' `meta`. The model test checks them at every step of every generated path
// (model-tests/download.model.test.ts, with model-tests/harness.ts).

/** The part of the snapshot the invariants read (not imported from ./download: that imports this file). */
type Held = {
  context: { progress: { done: number; total: number } | null; error: string | { message: string } | null };
  children: Record<string, unknown>;
  hasTag: (tag: string) => boolean;
};
const fetching = (s: Held) => 'fetch' in s.children;

export const invariants = {
  idle: {
    'nothing is fetched, no progress, no error shown': (s: Held) =>
      !fetching(s) && !s.hasTag('busy') && s.context.progress === null && s.context.error === null,
  },
  running: {
    'the fetch runs, busy, no error': (s: Held) => fetching(s) && s.hasTag('busy') && s.context.error === null,
    'progress is two figures, done never below 0 nor (when the total is known) above it': ({ context: { progress: p } }: Held) =>
      p !== null && Number.isFinite(p.done) && Number.isFinite(p.total) && p.done >= 0 && (p.total === 0 || p.done <= p.total),
  },
  failed: {
    'why it failed is said; nothing is fetched and no progress is shown': (s: Held) =>
      !fetching(s) &&
      !s.hasTag('busy') &&
      s.context.error !== null &&
      (typeof s.context.error === 'string' ? s.context.error : s.context.error.message).trim() !== '' &&
      s.context.progress === null,
  },
};
