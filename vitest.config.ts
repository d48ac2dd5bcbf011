import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    // the RabbitMQ relay test needs a broker: .ci/run starts one and sets STOMP_RELAY_TEST_URL
    exclude: ['node_modules/**', 'dist/**', 'e2e/**', 'data/**', ...(process.env.STOMP_RELAY_TEST_URL ? [] : ['**/*.rabbitmq.test.ts'])],
    environment: 'node',
    // one migrated, seeded database image per run, which every test server starts from (server/testkit.ts)
    globalSetup: ['server/testTemplate.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
