// Auditors record and replay: the browser's journal exported as NDJSON replays to the same states, both
// headlessly (`npm run replay`) and in the console's replay screen.
import { expect, test } from './fixtures';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { shot, signIn } from './helpers';

test('an exported journal replays to the same states in the CLI and the replay screen', async ({ page }, info) => {
  await signIn(page, 'auditor');
  await page.getByTestId('sidebar').getByRole('link', { name: 'Identities', exact: true }).click();
  await expect(page.getByTestId('row').first()).toBeVisible(); // the list has loaded its first page
  // its tab closed and the list opened again: the list's actor stops with its view and a new one opens
  await page.getByRole('button', { name: 'Close Identities' }).click();
  await expect(page.getByTestId('tab').filter({ hasText: 'Identities' })).toHaveCount(0);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Identities', exact: true }).click();
  await expect(page.getByTestId('row').first()).toBeVisible();
  await page.getByTestId('sidebar').getByRole('link', { name: 'Activity report', exact: true }).click();
  await page.getByTestId('sidebar').getByRole('link', { name: 'Journal replay', exact: true }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export journal' }).click();
  const file = info.outputPath('journal.ndjson');
  await (await download).saveAs(file);
  const text = readFileSync(file, 'utf8');
  expect(text).toContain('"route.visited"');
  // the identities list is an actor of the system, a child of `views` opened by its view: its events are in the
  // journal too (issue 11)
  expect(text).toMatch(/"actor":"views","event":\{"type":"view\.open","id":"list:identities#\d+"/);
  expect(text).toMatch(/"actor":"list:identities#\d+","event":\{"type":"xstate\.done\.actor\./);
  const lists = [...text.matchAll(/"actor":"views","event":\{"type":"view\.open","id":"(list:identities#\d+)"/g)].map((m) => m[1]);
  expect(lists).toHaveLength(2);
  expect(text).toContain(`"actor":"views","event":{"type":"view.close","id":"${lists[0]}"}`);
  expect(text).not.toContain('Gatehouse1!'); // secrets are redacted

  const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/replay.ts', file], { encoding: 'utf8' });
  expect(out).toMatch(/match|ok/i);
  // and it is re-run, not only recorded: the list's steps are replayed and match
  expect(out).toMatch(/^ok\s+line \d+\s+views ← view\.open/m);
  expect(out).toMatch(/^ok\s+line \d+\s+list:identities#\d+ ← xstate\.init/m);
  expect(out).toMatch(/^ok\s+line \d+\s+list:identities#\d+ ← xstate\.done\.actor\./m);

  await page.getByLabel('Load journal').setInputFiles(file);
  await expect(page.getByText(/every state matches the journal/)).toBeVisible();
  await shot(page, 'replay');

  // a truncated journal is refused with the line, and the loaded one stays
  const broken = info.outputPath('broken.ndjson');
  // cut in the middle of a line (never on a line boundary, which would leave a shorter but valid journal)
  const lines = text.split('\n');
  const half = Math.floor(lines.length / 2);
  writeFileSync(broken, [...lines.slice(0, half), lines[half].slice(0, Math.floor(lines[half].length / 2))].join('\n'));
  await expect(page.getByLabel('Load journal')).toBeEnabled(); // the first replay has finished
  await page.getByLabel('Load journal').setInputFiles(broken);
  await expect(page.getByText('This journal cannot be replayed')).toBeVisible();
  // in the open view (the kept-alive dashboard behind it has a "Hardware offline 0" heading of its own)
  await expect(
    page
      .locator('[data-testid="view"]:visible')
      .getByText(/\bline \d+/)
      .first(),
  ).toBeVisible();
});
