// `npm run replay -- journal.ndjson`: re-runs an exported journal through the same machines, headlessly, prints
// each step's state and fails on the first divergence from the recorded states (exit 1). A file that is not a
// valid journal is refused before anything runs (exit 2). The work is replayJournal() in machines/journal.ts, which
// the console's replay screen uses too.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { replayJournal, type ReplayResult } from '../machines/journal';

export { replayJournal, shouldFeed, replayImpl } from '../machines/journal';

export const EXIT = { ok: 0, diverged: 1, invalid: 2 } as const;

const json = (v: unknown) => JSON.stringify(v);

/** Human report of a replay, one line per step. */
export function formatReplay(r: ReplayResult): string[] {
  if (!r.ok && r.kind === 'invalid') return [`invalid journal: ${r.message}`];
  const out = r.warnings.map((w) => `warning: ${w}`);
  for (const s of r.steps) {
    const mark = s.matches ? 'ok  ' : 'DIFF';
    out.push(
      `${mark} line ${s.line}  ${s.actor} ← ${s.event}${s.fed ? '' : ' (produced by the system)'}  → ${json(s.replayed)}${s.matches ? '' : `  (journal: ${json(s.recorded)})`}`,
    );
  }
  if (r.ok) out.push(`replayed ${r.steps.length} steps of ${r.journal.lines.length} lines: every state matches the journal`);
  else out.push(`diverged: ${r.message}`);
  return out;
}

/** The CLI without the process: returns the exit code. */
export function main(argv: readonly string[], io: { out: (s: string) => void; err: (s: string) => void; read?: (path: string) => string }): number {
  const file = argv.find((a) => !a.startsWith('-'));
  if (!file) {
    io.err('usage: npm run replay -- journal.ndjson');
    return EXIT.invalid;
  }
  let text: string;
  try {
    text = (io.read ?? ((p) => readFileSync(p, 'utf8')))(file);
  } catch (e) {
    io.err(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.invalid;
  }
  const r = replayJournal(text);
  if (!r.ok && r.kind === 'invalid') {
    io.err(`${file}: ${r.message}`);
    return EXIT.invalid;
  }
  const lines = formatReplay(r);
  for (const l of lines.slice(0, -1)) io.out(l);
  (r.ok ? io.out : io.err)(`${file}: ${lines[lines.length - 1]}`);
  return r.ok ? EXIT.ok : EXIT.diverged;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2), { out: (s) => console.log(s), err: (s) => console.error(s) });
}
