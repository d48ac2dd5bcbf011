// What holds in each state of the session-ending machine (./sessionEnd.ts), written apart from its transitions and read
// by nothing in it: its states' `meta`. The model test checks them at every step of every generated path
// (model-tests/sessionEnd.model.test.ts, with model-tests/harness.ts).

/** The part of the snapshot the invariants read (not imported from ./sessionEnd: that imports this file). */
type Held = { context: { ids: number[]; error: string | null; result: unknown }; children: Record<string, unknown>; hasTag: (tag: string) => boolean };
const ending = (s: Held) => 'endSessions' in s.children;

export const invariants = {
  machine: {
    'the ids held are positive whole numbers, each once': ({ context: { ids } }: Held) =>
      ids.every((id) => Number.isInteger(id) && id > 0) && new Set(ids).size === ids.length,
    'busy exactly while the end is asked': (s: Held) => s.hasTag('busy') === ending(s),
  },
  idle: { 'nothing waits for a confirmation': ({ context: c }: Held) => c.ids.length === 0 },
  confirming: { 'the sessions to end wait for the confirmation; no error from before': ({ context: c }: Held) => c.ids.length > 0 && c.error === null },
  ending: { 'the confirmed sessions are being ended': (s: Held) => ending(s) && s.context.ids.length > 0 && s.context.error === null },
  failed: { 'why it failed is said; nothing waits': ({ context: c }: Held) => !!c.error && c.error.trim() !== '' && c.ids.length === 0 },
};
