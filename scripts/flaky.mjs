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

/** The `n` slowest tests (each try's duration summed), for the CI log: where the end-to-end minutes go. */
export function slowestTests(report, n = 12) {
  const all = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) {
        const ms = (t.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
        all.push({ ms, name: `${spec.file}:${spec.line} › ${spec.title}` });
      }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const s of report.suites ?? []) walk(s);
  return all.sort((a, b) => b.ms - a.ms).slice(0, n);
}

/** Each failed test with the first lines of its last error: a CI log cut short still says why. */
export function failureLines(report) {
  const out = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected') continue;
        const last = (t.results ?? []).at(-1);
        const message = String(last?.error?.message ?? last?.errors?.[0]?.message ?? '')
          .replace(new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g'), '')
          .split('\n')
          .filter((l) => l.trim())
          .slice(0, 6)
          .join(' ⏎ ');
        out.push(`${spec.file}:${spec.line} › ${spec.title}: ${message.slice(0, 600)}`);
      }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const s of report.suites ?? []) walk(s);
  return out;
}
