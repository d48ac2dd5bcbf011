import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module of the test runner, without types
import { flakyTests } from './flaky.mjs';

describe('flaky tests in a Playwright report', () => {
  it('names the test that passed only on its retry, with its group, and not the one that passed at once', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gh-flaky-')), 'report.json');
    const r = spawnSync('npx', ['playwright', 'test', '-c', 'scripts/flaky-fixture/playwright.config.ts'], {
      env: { ...process.env, FLAKY_REPORT: out },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.stats.flaky).toBe(1);
    expect(flakyTests(report)).toEqual(['retry.fixture.ts:4 › a group › fails once, then passes']);
  }, 60_000);
});
