// Session replay (issue 4, §9 "session replay rate 0.1"): a session forced into the sample (the documented
// `gatehouse.replay` override) uploads its redacted journal in the background and flushes at sign-out; an auditor
// finds it under Recorded sessions on the replay screen, opens it and steps through it.
import { expect, test } from './fixtures';
import { PASSWORD, shot, signInWithForm as signIn } from './helpers';

// the recording begins at a sign-in through the form, as an operator's does (signInWithForm)
test('a sampled operator session is uploaded, listed for the auditor, opened and stepped through', async ({ page }) => {
  // force the draw for this browser before the console loads
  await page.addInitScript(() => localStorage.setItem('gatehouse.replay', 'always'));
  const uploads: number[] = [];
  // the recording's id, as the server's receipts of its uploads name it
  const recordings: Promise<number | null>[] = [];
  page.on('response', (r) => {
    if (r.request().method() !== 'POST' || !r.url().includes('/central/1.0/session-journals/')) return;
    uploads.push(r.status());
    recordings.push(
      r.json().then(
        (b: { id?: number }) => b.id ?? null,
        () => null,
      ),
    );
  });

  await signIn(page, 'operator');
  const sidebar = page.getByTestId('sidebar');
  await sidebar.getByRole('link', { name: 'Alarms', exact: true }).click();
  await expect(page.getByTestId('socket-status')).toHaveText(/connected/);
  await sidebar.getByRole('link', { name: 'Identities', exact: true }).click();
  await sidebar.getByRole('link', { name: 'Events', exact: true }).click();

  // sign out: the last entries go up before the token dies (the logout call waits for the flush)
  const logout = page.waitForResponse((r) => r.url().endsWith('/idp/1.0/logout'));
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await logout;
  await expect(page).toHaveURL(/\/login/);
  expect(uploads.length).toBeGreaterThan(0);
  expect(
    uploads.filter((s) => s !== 200),
    'journal uploads not answered 200',
  ).toEqual([]);

  // an auditor (0.8.2.0) lists and opens it; no recording of their own is forced any more
  await page.evaluate(() => localStorage.setItem('gatehouse.replay', 'never'));
  await signIn(page, 'auditor', PASSWORD);
  await sidebar.getByRole('link', { name: 'Journal replay', exact: true }).click();
  // this session's recording (an operator's session of an earlier spec on this worker's server may have been drawn for
  // recording too, one in ten, and still be live: the CI at fc57e47 opened that one)
  const ids = new Set((await Promise.all(recordings)).filter((id) => id !== null));
  expect(ids.size, 'one recording for the operator session').toBe(1);
  const [recording] = ids;
  const row = page.locator(`[data-testid="recorded-session"][data-recording="${recording}"]`);
  await expect(row).toContainText('operator');
  await expect(row).toBeVisible();
  await expect(row).toContainText('ended');
  const entries = Number(await row.locator('td').nth(2).textContent());
  expect(entries).toBeGreaterThan(10);
  await row.getByRole('button', { name: /^Open the session of operator/ }).click();

  await expect(page.getByText(/^Recorded session of operator/)).toBeVisible();
  // the same machines reproduce every recorded state (sockets and REST answers are fed from the journal)
  await expect(page.getByText(/every state matches the journal/)).toBeVisible();
  const steps = page.getByRole('listbox', { name: 'Journal steps' }).getByRole('option');
  await expect(steps.first()).toBeVisible();
  expect(await steps.count()).toBe(entries);
  // the sign-in with its password, redacted, and the navigation are in it
  await page.getByRole('option').filter({ hasText: 'session.signIn' }).first().getByRole('button').click();
  await expect(page.locator('pre').first()).toContainText('[redacted]');
  await expect(page.locator('pre').first()).not.toContainText(PASSWORD);
  await page.getByRole('option').filter({ hasText: 'session.signOut' }).first().getByRole('button').click();
  await expect(page.getByRole('heading', { name: /session\.signOut/ })).toBeVisible();
  await shot(page, 'replay-recorded-session');
});
