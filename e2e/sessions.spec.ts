// Monitor → Operator sessions and Service account sessions (issue 4): an administrator sees who is signed in,
// ends the operator's session from another browser, and that operator's console is sent to the sign-in page on
// its next request. The service-account screen lists the demo integration's session.
import { expect, test, type Page } from './fixtures';
import { shot, signIn } from './helpers';

/** admin works in Northwind: select it, unless an earlier test left it selected (the choice is kept per user). */
async function workIn(page: Page, name: string) {
  await page.goto('/manage/clients');
  const select = page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: 'Select' });
  await expect(select).toBeVisible();
  if (await select.isEnabled()) await select.click();
  await expect(page.getByTestId('current-client')).toContainText(name);
}

test("an administrator ends an operator's session, and that console is sent to sign in on its next request", async ({ browser }) => {
  // a browser of its own, told apart by its user agent: earlier specs on the shared server left other sessions open
  const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 GatehouseE2E-sessions';
  const operator = await (await browser.newContext({ userAgent: UA })).newPage();
  await signIn(operator, 'operator', { at: '/dashboard' });
  await expect(operator.getByTestId('dashboard')).toBeVisible();

  const admin = await (await browser.newContext({ viewport: { width: 1400, height: 800 } })).newPage();
  await signIn(admin, 'admin');
  await workIn(admin, 'Northwind Logistics');
  await admin.getByTestId('sidebar').getByRole('link', { name: 'Operator sessions', exact: true }).click();
  const screen = admin.getByTestId('operator-sessions');
  await expect(screen.getByRole('heading', { name: 'Operator sessions' })).toBeVisible();

  // the caller's own session is marked and cannot be ended here
  const mine = screen.getByRole('row', { name: 'Alex Admin (admin)' }).filter({ hasText: 'This session' });
  await expect(mine).toHaveCount(1);
  await expect(mine.getByRole('button', { name: 'End session' })).toHaveCount(0);

  // the filter narrows the list on the server (here by the operator's browser)
  const filter = screen.getByRole('searchbox', { name: 'Filter operator sessions' });
  await filter.fill('GatehouseE2E-sessions');
  await expect(screen.getByTestId('session-row')).toHaveCount(1);
  const theirs = screen.getByRole('row', { name: 'Sam Operator (operator)' });
  await expect(theirs).toContainText('127.0.0.1');
  await expect(theirs).toContainText(/Chrome \d+ on Linux/);
  await expect(theirs).toContainText('Open');
  await shot(admin, 'operator-sessions');

  // end it: a confirmation first; cancelling changes nothing
  await theirs.getByRole('button', { name: 'End session' }).click();
  const dialog = admin.getByRole('alertdialog');
  await expect(dialog).toContainText('End the session of Sam Operator (operator) from 127.0.0.1');
  await shot(admin, 'operator-sessions-confirm');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(theirs).toBeVisible();
  await theirs.getByRole('button', { name: 'End session' }).click();
  await admin.getByRole('alertdialog').getByRole('button', { name: 'End session' }).click();
  await expect(theirs).toHaveCount(0);

  await screen.getByRole('radio', { name: 'Ended' }).click();
  const ended = screen.getByRole('row', { name: 'Sam Operator (operator)' }).first();
  await expect(ended).toContainText('Ended');
  await expect(ended).toContainText('by admin');
  await shot(admin, 'operator-sessions-ended');

  // the operator's next request is refused: back to sign in with the message
  await operator.getByTestId('sidebar').getByRole('link', { name: 'Identities', exact: true }).click();
  await expect(operator).toHaveURL(/\/login/);
  await expect(operator.getByTestId('session-notice')).toHaveText('Session expired, please relogin.');
});

test("the service-account screen lists the demo integration's open session; a security operator only watches", async ({ browser }) => {
  const admin = await (await browser.newContext({ viewport: { width: 1400, height: 800 } })).newPage();
  await signIn(admin, 'admin');
  await workIn(admin, 'Northwind Logistics');
  await admin.getByTestId('sidebar').getByRole('link', { name: 'Service account sessions', exact: true }).click();
  const screen = admin.getByTestId('service-sessions');
  const row = screen.getByRole('row', { name: 'Door sync (integration) (door-sync)' });
  await expect(row).toContainText('10.1.0.50');
  await expect(row).toContainText('door-sync/2.3');
  await expect(row.getByRole('button', { name: 'End session' })).toBeVisible();
  await expect(screen.getByText('Nurse call bridge')).toHaveCount(0); // Harbour's
  await shot(admin, 'service-account-sessions');

  const watcher = await (await browser.newContext()).newPage();
  await signIn(watcher, 'operator', { at: '/monitor/service-account-sessions' });
  const seen = watcher.getByTestId('service-sessions').getByRole('row', { name: 'Door sync (integration) (door-sync)' });
  await expect(seen).toBeVisible();
  await expect(seen.getByRole('button', { name: 'End session' })).toHaveCount(0);
  await expect(watcher.getByTestId('end-selected')).toHaveCount(0);
});
