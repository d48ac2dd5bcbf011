// `npm run mutation [-- <stryker options>]`: runs StrykerJS (stryker.config.mjs: one test process, incremental), then
// writes the mutation score per file into docs/TESTING.md between the mutation-scores markers, from Stryker's JSON
// report. Files not mutated in this run keep their last row (with its date), so a run over a subset
// (`npm run mutation -- --mutate machines/tabs.ts`) updates only its own files. Not part of `npm test`.
// `npm run mutation -- --report-only` rewrites the table from the last report without running Stryker.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

const REPORT = '.tmp/mutation/mutation.json';
const DOC = 'docs/TESTING.md';
const START = '<!-- mutation-scores:start (written by npm run mutation; do not edit by hand) -->';
const END = '<!-- mutation-scores:end -->';

type Status = 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';
interface Report {
  files: Record<string, { mutants: Array<{ status: Status; mutatorName: string }> }>;
}

export interface Row {
  file: string;
  mutants: number;
  killed: number;
  survived: number;
  noCoverage: number;
  timeout: number;
  invalid: number;
  ignored: number;
  score: number | null;
  survivors: string;
  date: string;
}

/** Stryker's mutation score: killed (a timeout counts as killed) of the valid mutants (a compile error is no mutant). */
export function rowOf(file: string, mutants: Array<{ status: Status; mutatorName: string }>, date: string): Row {
  const n = (s: Status) => mutants.filter((m) => m.status === s).length;
  const killed = n('Killed');
  const timeout = n('Timeout');
  const survived = n('Survived');
  const noCoverage = n('NoCoverage');
  const valid = killed + timeout + survived + noCoverage;
  const by = new Map<string, number>();
  for (const m of mutants) if (m.status === 'Survived' || m.status === 'NoCoverage') by.set(m.mutatorName, (by.get(m.mutatorName) ?? 0) + 1);
  const survivors = [...by.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return {
    file,
    mutants: mutants.length,
    killed,
    survived,
    noCoverage,
    timeout,
    invalid: n('CompileError') + n('RuntimeError'),
    ignored: n('Ignored'),
    score: valid ? (100 * (killed + timeout)) / valid : null,
    survivors,
    date,
  };
}

const line = (r: Row) =>
  `| ${r.file} | ${r.mutants} | ${r.ignored} | ${r.killed + r.timeout} | ${r.survived} | ${r.noCoverage} | ${r.invalid} | ${r.score === null ? 'n/a' : `${r.score.toFixed(1)} %`} | ${r.survivors || '—'} | ${r.date} |`;

/** The rows already in the document, by file. */
function previousRows(doc: string): Map<string, string> {
  const out = new Map<string, string>();
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a < 0 || b < 0) return out;
  for (const l of doc.slice(a, b).split('\n')) {
    const m = /^\| ([^ |]+\.ts) \|/.exec(l);
    if (m) out.set(m[1], l);
  }
  return out;
}

/** The files of `--mutate a,b` (globs with * and **, a line range `:10-20` ignored) as patterns; null: the config's. */
export function mutatePatterns(args: string[]): RegExp[] | null {
  const i = args.findIndex((a) => a === '--mutate' || a === '-m');
  if (i < 0 || !args[i + 1]) return null;
  return args[i + 1]
    .split(',')
    .filter((p) => p && !p.startsWith('!'))
    .map((p) => p.replace(/:[\d:-]+$/, ''))
    .map(
      (p) =>
        new RegExp(
          `^${p
            .split(/\*\*\/?/)
            .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
            .join('.*')}$`,
        ),
    );
}

function main() {
  const args = process.argv.slice(2);
  const reportOnly = args.includes('--report-only');
  const started = Date.now();
  if (!reportOnly) {
    // a run that failed (a bad option, a failing initial test run) leaves the last report: never date its rows anew
    const r = spawnSync('node_modules/.bin/stryker', ['run', ...args], { stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  const report = JSON.parse(readFileSync(REPORT, 'utf8')) as Report;
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  // an incremental report carries the files of earlier runs too: with --mutate only the files asked for are this run's
  const asked = mutatePatterns(args);
  const rows = Object.entries(report.files)
    .map(([file, f]) => rowOf(file.replace(/^\.\//, ''), f.mutants, date))
    .filter((r) => reportOnly || asked === null || asked.some((re) => re.test(r.file)))
    .sort((a, b) => a.file.localeCompare(b.file));
  const doc = readFileSync(DOC, 'utf8');
  const kept = previousRows(doc);
  for (const r of rows) kept.set(r.file, line(r));
  const all = [...kept.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([, l]) => l);
  const total = rows.reduce((t, r) => ({ killed: t.killed + r.killed + r.timeout, valid: t.valid + r.killed + r.timeout + r.survived + r.noCoverage }), {
    killed: 0,
    valid: 0,
  });
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  const table = [
    START,
    '',
    `Last run ${date} UTC over ${rows.length} file(s)${reportOnly ? ' (table rewritten from the last report)' : `, ${minutes} minutes`} on ${cpus().length} cores (load ${loadavg()[0].toFixed(1)}): ` +
      `${total.killed} of ${total.valid} valid mutants killed (${total.valid ? ((100 * total.killed) / total.valid).toFixed(1) : 'n/a'} %). Goal: 80 % per file.`,
    '',
    '| file | mutants | ignored (static) | killed | survived | no coverage | invalid | score | survivors by mutator (top 3) | measured (UTC) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...all,
    '',
    END,
  ].join('\n');
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  const next = a >= 0 && b >= 0 ? doc.slice(0, a) + table + doc.slice(b + END.length) : `${doc.trimEnd()}\n\n## Mutation score\n\n${table}\n`;
  writeFileSync(DOC, next);
  console.log(`mutation scores of ${rows.length} file(s) written to ${DOC}`);
}

main();
