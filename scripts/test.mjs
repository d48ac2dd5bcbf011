// `npm test`: lint, format check, typecheck and the console's build side by side, then the unit + model-based + server tests
// (on PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set, as .ci/run does), then the end-to-end suite in Debian chromium.
import { spawn } from 'node:child_process';
import { readFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { failureLines, flakyTests, slowestTests } from './flaky.mjs';
import { lastLineOf } from './lastLine.mjs';
import { SERVER_BUNDLE_ENV, bundleServer } from './serverBundle.mjs';

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedStep = null;

const took = [];
/**
 * Runs a step as a child process; its output goes straight through (`live`) or is kept and printed whole when it ends,
 * under its header (a step that runs beside another must not interleave its lines with the other's).
 */
function step(name, cmd, args, { env = {}, live = false } = {}) {
  const started = Date.now();
  if (live) console.log(`\n=== ${name} ===`);
  return new Promise((resolve) => {
    const out = [];
    const child = spawn(cmd, args, { stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'], env: { ...process.env, ...env } });
    if (!live) {
      child.stdout.on('data', (d) => out.push(d));
      child.stderr.on('data', (d) => out.push(d));
    }
    const end = (code, text = '') => {
      if (!live) {
        console.log(`\n=== ${name} ===`);
        process.stdout.write(Buffer.concat(out).toString() + text);
      }
      took.push(`${name}: ${((Date.now() - started) / 60000).toFixed(1)} min`);
      if (code !== 0 && !failedStep) failedStep = name;
      resolve(code === 0);
    };
    child.on('close', (code) => end(code ?? 1));
    child.on('error', (e) => end(1, String(e)));
  });
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
    console.log('slowest end-to-end tests (seconds, tries summed):');
    for (const t of slowestTests(j)) console.log(`  ${(t.ms / 1000).toFixed(1).padStart(6)}  e2e/${t.name}`);
    for (const f of failureLines(j)) console.log(`failed: e2e/${f}`);
  } catch {
    /* idem */
  }
}

// CI (CI=true, as .ci/run sets) runs everything or fails: the PostgreSQL server suite, the RabbitMQ relay test and the
// scale-out spec need their services, and a test skipped or left out is a failure there, not a footnote.
const ci = !!process.env.CI;
if (ci) {
  const missing = ['TEST_DATABASE_URL', 'STOMP_RELAY_TEST_URL'].filter((v) => !process.env[v]);
  if (missing.length) {
    console.error(`CI needs ${missing.join(' and ')} (PostgreSQL, RabbitMQ: .ci/run starts them); without them tests would drop out`);
    process.exit(1);
  }
}

mkdirSync('test-results', { recursive: true });
/** A tool of node_modules/.bin, started as it is (npx looked it up again every time, a second of processor time each). */
const bin = (tool) => `node_modules/.bin/${tool}`;
/**
 * The server tests' seeded PGlite image (server/writeTestImage.ts), written beside the source checks: made by the PGlite
 * step's global setup, it was about 9 s of one thread while vitest's forks waited for it. Its file, or null when it
 * failed (then the global setup makes it, as before).
 */
function writeTestImage() {
  return lastLineOf('server/writeTestImage.ts', (code) => `(the server tests' image was not written ahead, exit ${code}; the global setup writes it)`);
}
const testImage = writeTestImage();
/**
 * The end-to-end servers' code bundled once (scripts/serverBundle.mjs), beside the source checks: every process that
 * starts a server (the template's, the workers', the specs') starts it with plain node instead of through tsx, about
 * 3 s less processor time a start. Null when it failed (then they start through tsx, as before, and the reason is said).
 */
const serverBundle = bundleServer().catch((e) => {
  console.log(`\n(the end-to-end server was not bundled, its servers start through tsx: ${e instanceof Error ? e.message : e})`);
  return null;
});
// First the steps that only read the sources, side by side (each is mostly one thread: together they take the time of
// the longest, not the sum), the console's build among them; each one's output is printed whole when it ends.
await Promise.all([
  step('lint', bin('eslint'), ['.', '--max-warnings=0']), // no --cache: it can keep the result of a file edited during the run
  // the formatter's check: every file as Prettier writes it (.prettierrc.json; `npm run format` formats what you changed)
  step('format', bin('prettier'), ['--check', '.', '--log-level=warn']),
  step('typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']),
  step('build the console', bin('vite'), ['build', '--logLevel', 'warn']),
]);
// Then vitest (unit, model-based and server tests) on PGlite, the server suite again on PostgreSQL, and the end-to-end
// run, one after another, each printed as it goes. (Tried: the end-to-end run beside vitest on one worker process. It
// took 24.5 minutes in all instead of ~26.5, but the end-to-end run slowed from 17.8 to 22.2 minutes and a PostgreSQL
// backup test's restore ran out of its minute beside it: two minutes are not worth a CI that fails now and then. Tried
// too, on a clean clone of ea9ef13 on 2026-12-05: the PostgreSQL step beside the PGlite step. The PGlite step took 11.5
// minutes beside the other's 7.8, against 7.6 + 3.1 one after the other the run before: no gain, and the whole run
// 27.7 minutes.)
const image = await testImage;
const bundled = await serverBundle;
if (bundled) process.env[SERVER_BUNDLE_ENV] = bundled.entry;
if (!failedStep) {
  await step(
    'unit, model-based and server tests (PGlite)',
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'],
    { env: { DATABASE_URL: '', ...(image ? { GATEHOUSE_TEST_PGLITE_IMAGE: image } : {}) }, live: true },
  );
  countVitest('test-results/vitest.json');
}
if (image) rmSync(dirname(image), { recursive: true, force: true }); // (the PostgreSQL step has a template database instead)
/**
 * Server test files that never touch PostgreSQL: crash.test.ts starts `server/main.ts` with DATABASE_URL '' (the kill -9
 * guarantee is the embedded database's), pgliteSettings.test.ts opens PGlite itself, testImage.test.ts looks at the PGlite
 * image the global setup writes for the PGlite step (on PostgreSQL it makes a template database). In the PostgreSQL step they took
 * 40 + 9 s of a fork (2026-12-04's clean-clone run) and, alone, 62 s of vitest time and 72 s of processor time
 * (load 4-8). A file added here must not read DATABASE_URL, TEST_DATABASE_URL nor the template database.
 */
const PGLITE_ONLY = ['server/crash.test.ts', 'server/db/pgliteSettings.test.ts', 'server/testImage.test.ts'];
/**
 * Server test files whose subject does not depend on the database engine, run once (by the PGlite step above):
 * hostile.property.test.ts sends thousands of hostile bodies, URLs and raw frames, all refused by the contract's checks
 * before a handler reaches the database (one request after another, nothing concurrent an engine could order
 * differently), and compares the tables' counts after each route; PGlite is PostgreSQL's own code, so a value the
 * database would refuse is refused the same way on both. On PostgreSQL it was the slowest file of the step: 135 s of a
 * fork in the clean-clone CI of 2026-12-04 (27 s on PGlite), a tenth of the step.
 * objectNames.property.test.ts sends JavaScript objects' member names (`constructor`, `__proto__`, …) as path
 * parameters, sorts, filters and searches, one request after another: its subject is the server's lookups of a name a
 * client sent, in JavaScript; what reaches the database is plain ASCII text in a parameter, which PGlite (PostgreSQL's
 * own code) treats as PostgreSQL does, and no route it asks answers by the engine (the backup routes say no backup
 * directory first, restore is left out). About 7 s of a fork on PostgreSQL (2026-12-05, load 6).
 * server/openapi/jsonSchemaOf.test.ts builds two servers and compares the schemas they are given and the documents
 * they make: code, not data (both asked before sign-in, or refused by a struct before a handler).
 */
const ENGINE_BLIND = ['server/http/hostile.property.test.ts', 'server/http/objectNames.property.test.ts', 'server/openapi/jsonSchemaOf.test.ts'];
/**
 * The end-to-end run's seeded template (e2e/globalSetup.ts: a server started on a fresh embedded database, migrated and
 * seeded, then stopped; every server of the run starts from a copy), made beside the PostgreSQL step instead of at the
 * start of the end-to-end step, where it was the only work for 10-15 s: one server start (about 19 s of processor time,
 * mostly one thread) while the two vitest forks of the PostgreSQL step wait on their database much of the time. Its
 * data directory, or null when it failed (then Playwright's global setup seeds it as before, and says why).
 */
function seedE2eTemplate() {
  return lastLineOf('e2e/seedTemplate.ts', (code) => `(the end-to-end template was not seeded ahead, exit ${code}; Playwright's global setup seeds it)`);
}
/**
 * The Playwright workers' servers, started from the seeded template beside the PostgreSQL step too (e2e/prestart.ts,
 * e2e/server.ts `PRESTARTED_ENV`): at the start of the end-to-end step each worker started its own, both at once
 * and beside both browsers starting, 12 s before the first server listened in the clean-clone CI of 2026-12-05. Its
 * servers as e2e/prestart.ts printed them, and the process that holds them; null when it failed (then each worker
 * starts its own, as before).
 */
function prestartE2eServers(template) {
  return new Promise((resolve) => {
    const out = [];
    const child = spawn(process.execPath, ['--import', 'tsx', 'e2e/prestart.ts'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, E2E_SEEDED_TEMPLATE: template },
    });
    let done = false;
    child.stdout.on('data', (d) => {
      out.push(d);
      const line = Buffer.concat(out)
        .toString()
        .split('\n')
        .find((l) => l.startsWith('['));
      if (line && !done) {
        done = true;
        resolve({ servers: JSON.parse(line), holder: child });
      }
    });
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', () => !done && ((done = true), resolve(null)));
    child.on('close', (code) => {
      if (done) return;
      done = true;
      console.log(`\n(the end-to-end servers were not started ahead, exit ${code}; each worker starts its own)\n${Buffer.concat(out).toString().trim()}`);
      resolve(null);
    });
  });
}
/** Whatever is left of the servers started ahead (a worker that never ran, a step that failed), and their directories. */
function stopPrestarted(prestarted) {
  if (!prestarted) return;
  for (const s of prestarted.servers) {
    try {
      process.kill(-s.pid, 'SIGKILL');
    } catch {
      /* stopped by its worker */
    }
    for (const dir of [s.dataDir, `${s.dataDir}-witness`, `${s.dataDir}-backups`, `${s.dataDir}-claimed`]) rmSync(dir, { recursive: true, force: true });
  }
  prestarted.holder.kill();
}
let e2eTemplate = null;
let e2eServers = null;
if (!failedStep && process.env.TEST_DATABASE_URL) {
  e2eTemplate = seedE2eTemplate();
  e2eServers = e2eTemplate.then((dir) => (dir ? prestartE2eServers(dir) : null));
  await step(
    'server tests (PostgreSQL)',
    bin('vitest'),
    // two forks here, not vitest.config.ts's three: the server suite on PostgreSQL took 135 s on two and 153 s on three
    // (190 s of processor time instead of 150; 2026-12-02, load 3-8, one run each), each fork's database beside them.
    // Left out here, run by the PGlite step above: the files that open the embedded database whatever DATABASE_URL
    // says, so on PostgreSQL they would run the very same test again (PGLITE_ONLY)
    [
      'run',
      'server',
      ...[...PGLITE_ONLY, ...ENGINE_BLIND].map((f) => `--exclude=${f}`),
      '--maxWorkers=2',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=test-results/vitest-pg.json',
    ],
    {
      env: { DATABASE_URL: process.env.TEST_DATABASE_URL },
      live: true,
    },
  );
  countVitest('test-results/vitest-pg.json');
}
const seeded = await e2eTemplate;
const prestarted = await e2eServers;
if (!failedStep) {
  // Playwright's global setup takes the seeded template and removes it at the end; each worker takes its server started
  // ahead and stops it at its end
  await step('end-to-end (chromium)', bin('playwright'), ['test'], {
    live: true,
    env: { ...(seeded ? { E2E_SEEDED_TEMPLATE: seeded } : {}), ...(prestarted ? { E2E_PRESTARTED: JSON.stringify(prestarted.servers) } : {}) },
  });
  countPlaywright('test-results/playwright.json');
} else if (seeded) {
  for (const dir of [seeded, `${seeded}-witness`, `${seeded}-backups`]) rmSync(dir, { recursive: true, force: true });
}
stopPrestarted(prestarted);
bundled?.remove();
console.log(`\nminutes per step (the CI budget is 25 in all; the source checks and the build run side by side): ${took.join('; ')}`);
writeFileSync('test-results/flaky.txt', flaky.map((f) => `${f}\n`).join(''));
for (const f of flaky) console.log(`flaky: ${f}`);
if (ci && totals.skipped && !failedStep) {
  failedStep = `${totals.skipped} test(s) skipped: in CI every test runs`;
}
if (failedStep) console.log(`failed step: ${failedStep}`);
console.log(`${totals.passed} passed, ${totals.failed} failed` + (totals.skipped ? `, ${totals.skipped} skipped` : ''));
process.exit(failedStep ? 1 : 0);
