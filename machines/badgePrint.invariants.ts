// What holds in each state of the badge print machine (./badgePrint.ts), written apart from its transitions and read by
// nothing in it: its states' `meta`. The model test checks them at every step of every generated path
// (model-tests/badgePrint.model.test.ts, with model-tests/harness.ts).

/** The part of the snapshot the invariants read (not imported from ./badgePrint: that imports this file). */
type Held = {
  context: { visitorId: number; printedAt: string | null; error: string | { message: string } | null };
  children: Record<string, unknown>;
  hasTag: (tag: string) => boolean;
};
const prints = (s: Held) => 'print' in s.children;
/** Text with a word in it (the error's own text, or its sentence's English). */
const words = (t: unknown) => typeof t === 'string' && t.trim() !== '';

export const invariants = {
  machine: {
    'busy exactly while the print runs': (s: Held) => s.hasTag('busy') === prints(s),
    'a print time, when there is one, is a time': ({ context: c }: Held) => c.printedAt === null || !Number.isNaN(Date.parse(c.printedAt)),
  },
  printing: { 'the badge of this visitor is printing': (s: Held) => prints(s) && s.context.visitorId > 0 },
  printed: { 'printed: the time it was recorded is kept, no error': ({ context: c }: Held) => c.printedAt !== null && c.error === null },
  failed: { 'why it failed is said': ({ context: c }: Held) => words(typeof c.error === 'string' ? c.error : c.error?.message) },
};
