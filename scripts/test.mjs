// `npm test`: lint, format check, typecheck, unit + model-based + server tests (on PGlite, and again on PostgreSQL when
// TEST_DATABASE_URL is set, as .ci/run does), then the end-to-end suite in Debian chromium.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { flakyTests } from './flaky.mjs';

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedStep = null;

const took = [];
function run(name, cmd, args, env = {}) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  took.push(`${name}: ${((Date.now() - started) / 60000).toFixed(1)} min`);
  if (r.status !== 0 && !failedStep) failedStep = name;
  return r.status === 0;
}
function countVitest(file) {
  try {
    const j = JSON.parse(readFileSync(file, 'utf8'));
    totals.passed += j.numPassedTests;
    totals.failed += j.numFailedTests;
    totals.skipped += j.numPendingTests + (j.numTodoTests ?? 0);
  } catch {
    /* the step already failed and said why */
  }
}
const flaky = [];
function countPlaywright(file) {
  try {
    const j = JSON.parse(readFileSync(file, 'utf8'));
    totals.passed += j.stats.expected + (j.stats.flaky ?? 0);
    totals.failed += j.stats.unexpected;
    totals.skipped += j.stats.skipped;
    flaky.push(...flakyTests(j).map((f) => `e2e/${f}`));
  } catch {
    /* idem */
  }
}

mkdirSync('test-results', { recursive: true });
/** A tool of node_modules/.bin, started as it is (npx looked it up again every time, a second of processor time each). */
const bin = (tool) => `node_modules/.bin/${tool}`;
/**
 * Steps that only read the sources, run side by side (each is mostly one thread: together they take the time of the
 * longest, not the sum); each one's output is printed whole when it ends, in the order given.
 */
async function runTogether(steps) {
  const started = Date.now();
  const results = await Promise.all(
    steps.map(
      ([name, cmd, args]) =>
        new Promise((resolve) => {
          const out = [];
          const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
          child.stdout.on('data', (d) => out.push(d));
          child.stderr.on('data', (d) => out.push(d));
          child.on('close', (code) => resolve({ name, code, out: Buffer.concat(out).toString(), minutes: (Date.now() - started) / 60000 }));
          child.on('error', (e) => resolve({ name, code: 1, out: String(e), minutes: 0 }));
        }),
    ),
  );
  for (const r of results) {
    console.log(`\n=== ${r.name} ===`);
    if (r.out) process.stdout.write(r.out);
    took.push(`${r.name}: ${r.minutes.toFixed(1)} min`);
    if (r.code !== 0 && !failedStep) failedStep = r.name;
  }
}
await runTogether([
  ['lint', bin('eslint'), ['.', '--max-warnings=0']], // no --cache: it can keep the result of a file edited during the run
  // the formatter's check: every file as Prettier writes it (.prettierrc.json; `npm run format` formats what you changed)
  ['format', bin('prettier'), ['--check', '.', '--log-level=warn']],
  ['typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']],
]);
if (!failedStep) {
  run(
    'unit, model-based and server tests (PGlite)',
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'],
    { DATABASE_URL: '' },
  );
  countVitest('test-results/vitest.json');
}
if (!failedStep && process.env.TEST_DATABASE_URL) {
  run('server tests (PostgreSQL)', bin('vitest'), ['run', 'server', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest-pg.json'], {
    DATABASE_URL: process.env.TEST_DATABASE_URL,
  });
  countVitest('test-results/vitest-pg.json');
}
if (!failedStep) {
  run('build the console', bin('vite'), ['build', '--logLevel', 'warn']);
}
if (!failedStep) {
  run('end-to-end (chromium)', bin('playwright'), ['test']);
  countPlaywright('test-results/playwright.json');
}
console.log(`\nminutes per step (the CI budget is 25 in all; lint, format and typecheck run side by side): ${took.join('; ')}`);
writeFileSync('test-results/flaky.txt', flaky.map((f) => `${f}\n`).join(''));
for (const f of flaky) console.log(`flaky: ${f}`);
if (failedStep) console.log(`failed step: ${failedStep}`);
console.log(`${totals.passed} passed, ${totals.failed} failed` + (totals.skipped ? `, ${totals.skipped} skipped` : ''));
process.exit(failedStep ? 1 : 0);
