// What holds in each state of the one-command-at-a-time machine (./command.ts), written apart from its transitions and
// read by nothing in it: its states' `meta`. The model test checks them at every step of every generated path
// (model-tests/command.model.test.ts, with model-tests/harness.ts).

/** The part of the snapshot the invariants read (not imported from ./command: that imports this file). */
type Held = { context: { command: string | null; result: unknown; error: string | null }; children: Record<string, unknown>; hasTag: (tag: string) => boolean };
const runs = (s: Held) => 'run' in s.children;

export const invariants = {
  machine: { 'busy exactly while a command runs': (s: Held) => s.hasTag('busy') === runs(s) },
  idle: { 'no command yet: none named, no result, no error': ({ context: c }: Held) => c.command === null && c.result === null && c.error === null },
  running: { 'one named command runs; no error is shown while it runs': (s: Held) => runs(s) && !!s.context.command && s.context.error === null },
  done: { 'the last command succeeded: no error shown': ({ context: c }: Held) => !!c.command && c.error === null },
  failed: { 'the last command failed and says why': ({ context: c }: Held) => !!c.command && typeof c.error === 'string' && c.error.trim() !== '' },
};
