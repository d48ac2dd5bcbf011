// StrykerJS (issue 51): the mutation score, the measure of whether the tests can fail. `npm run mutation` runs it and
// writes the score per file into docs/TESTING.md (scripts/mutation.ts); it is a benchmark-like run, never part of
// `npm test`. Mutated: the machines, the access engine (access/engine.ts; server/access/engine.ts before it moved),
// the payroll rules (contract/attendanceDaily.ts), the audit chain and the OSDP framing and secure channel. The tests
// that can kill a mutant are the unit, model and engine tests and the audit chain's (vitest.mutation.config.ts).
// On a shared 2-core machine: one test process at a time, and incremental (a second run re-tests only what changed).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'machines/**/*.ts',
    '!machines/**/*.test.ts',
    'access/engine.ts',
    'server/access/engine.ts',
    'contract/attendanceDaily.ts',
    // the audit chain's checks (chain.ts only names them): a record and a head, the walk of the database, the offline export check
    'server/audit/verify.ts',
    'server/audit/export.ts:101-250',
    'edge/osdp/**/*.ts',
    '!edge/osdp/**/*.test.ts',
    '!edge/osdp/**/testkit.ts',
  ],
  testRunner: 'vitest',
  // only the test files that import a mutated file run (vitest's related mode): the dry run stays short
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  // type errors elsewhere in the tree (another engineer's work in progress) do not stop the run: only a mutant's own
  // compile error counts, as a mutant that cannot exist
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  concurrency: 1,
  timeoutMS: 20_000,
  incremental: true,
  incrementalFile: '.tmp/mutation/incremental.json',
  tempDirName: '.tmp/stryker',
  cleanTempDir: 'always',
  ignorePatterns: ['dist', 'data', 'data-backups', 'test-results', 'playwright-report', 'e2e', 'bench', 'docs', 'src', '.tmp', 'coverage'],
  reporters: ['json', 'clear-text', 'progress'],
  jsonReporter: { fileName: '.tmp/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
};
