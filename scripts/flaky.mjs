// Reads Playwright's JSON report for the tests that needed their retry (scripts/test.mjs prints them as `flaky:`).

/** Tests that failed and then passed on their retry (CI retries once): named, never hidden. */
export function flakyTests(report) {
  const out = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === 'flaky') out.push(`${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith('.ts') ? [...titles, child.title] : titles);
  };
  for (const s of report.suites ?? []) walk(s, []);
  return out;
}
