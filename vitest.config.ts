import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    // the RabbitMQ relay test needs a broker: .ci/run starts one and sets STOMP_RELAY_TEST_URL. Left out on a developer's
    // machine without one; in CI (CI=true) never: there the file fails when the broker is missing
    exclude: [
      'node_modules/**',
      'dist/**',
      'e2e/**',
      'data/**',
      '.tmp/**',
      '.stryker-tmp/**',
      ...(process.env.STOMP_RELAY_TEST_URL || process.env.CI ? [] : ['**/*.rabbitmq.test.ts']),
    ],
    // a committed `.only` would cut the run to one test, green: refused in CI (ESLint refuses it everywhere)
    allowOnly: !process.env.CI,
    environment: 'node',
    // one migrated, seeded database image per run, which every test server starts from (server/testkit.ts)
    globalSetup: ['server/testTemplate.ts'],
    // a file that runs a serial line over pseudo-terminals gets the processor before the other forks (the file says why)
    setupFiles: ['edge/osdp/linePriority.setup.ts'],
    pool: 'forks',
    // a fork keeps the modules it imported for the next test file instead of importing the server anew for each of
    // them (every server test starts a server and database of its own, server/testkit.ts): the 25 files of server/http
    // took 155 s of processor time instead of 288 (import 9 s instead of 120), and the whole suite passes so
    isolate: false,
    // three forks on the 2 cores: with two the whole suite kept 1.4 cores busy on average (the server tests wait for
    // timers, child processes and the network); on 2026-12-02 at load 1-6, 409 s with two and 365 s with three (596 s
    // of processor time instead of 563), the same 1,881 tests passed both times (one run each)
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
