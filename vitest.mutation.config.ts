// The tests StrykerJS runs against each mutant (stryker.config.mjs): those of the mutated code that run in a second or
// so: the machines' unit and model tests, the access engine's, the payroll rules', the audit chain's and OSDP's.
import { defineConfig } from 'vitest/config';
import base from './vitest.config';

export default defineConfig({
  test: {
    ...base.test,
    // MUTATION_TESTS=a.test.ts,b.test.ts narrows the run to those files: related mode counts every test that imports the
    // mutated file through contract/index.ts (the payroll rules: all the model tests), and the dry run of them all timed
    // out on the loaded machine where attendanceDaily.test.ts alone kills what can be killed
    include: process.env.MUTATION_TESTS
      ? process.env.MUTATION_TESTS.split(',')
      : [
          'model-tests/**/*.test.ts',
          'machines/**/*.test.ts',
          'access/**/*.test.ts',
          'server/access/engine*.test.ts',
          'contract/attendanceDaily.test.ts',
          'server/audit/chain.test.ts',
          'server/audit/verifyOffline.test.ts',
          'server/audit/verifyWalk.test.ts',
          'edge/osdp/**/*.test.ts',
        ],
    // the OSDP command line's tests start the CLI over pseudo-terminals (socat), and the bus test waits for a reader to
    // come online within 3 s: not unit tests of the framing, and the instrumented code of a mutation run misses the
    // bus test's deadline (it failed Stryker's initial run)
    // The reader simulator's test (pd/reader.test.ts) talks over a pseudo-terminal through the serial port's native
    // binding, which crashed the test process in a mutation run (V8 "HandleScope" abort, 2026-12-02): the framing and
    // the secure channel are killed by the unit tests (messages, parser, secure, vectors).
    exclude: ['node_modules/**', 'dist/**', 'e2e/**', 'data/**', '.tmp/**', 'edge/osdp/tools*.test.ts', 'edge/osdp/bus.test.ts', 'edge/osdp/pd/*.test.ts'],
    // Stryker's runner needs each test file in a fresh module graph to see the mutant switch
    isolate: true,
    // no database image built before each run: Stryker's runner reruns vitest for every mutant, and the global setup
    // took about 45 s each time (a mutant a minute). The audit chain's test server migrates its own database instead.
    globalSetup: [],
  },
});
