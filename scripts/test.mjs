// `npm test`: lint, format check, typecheck, unit + model-based + server tests (on PGlite, and again on PostgreSQL when
// TEST_DATABASE_URL is set, as .ci/run does), then the end-to-end suite in Debian chromium.
import { spawnSync } from 'node:child_process';
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
run('lint', bin('eslint'), ['.', '--max-warnings=0']); // no --cache: it can keep the result of a file edited during the run
// the formatter's check: every file as Prettier writes it (.prettierrc.json; `npm run format` formats what you changed)
run('format', bin('prettier'), ['--check', '.', '--log-level=warn']);
run('typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
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
console.log(`\nminutes per step (the CI budget is 25 in all): ${took.join('; ')}`);
writeFileSync('test-results/flaky.txt', flaky.map((f) => `${f}\n`).join(''));
for (const f of flaky) console.log(`flaky: ${f}`);
if (failedStep) console.log(`failed step: ${failedStep}`);
console.log(`${totals.passed} passed, ${totals.failed} failed` + (totals.skipped ? `, ${totals.skipped} skipped` : ''));
process.exit(failedStep ? 1 : 0);
