// Privileges (issue 11): the catalogue with the roles that hold each code; a role's privileges ticked on its
// assign screen (a whole group, one code in one division), saved as exactly those ticks, shown on the catalogue;
// a user without 0.3.6.4 has no Assign privileges and the address is denied.
import { expect, test } from './fixtures';
import { shot, signIn, signInTo } from './helpers';

test('a role\u2019s privileges are ticked per group and division, and the catalogue shows who holds each', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');
  const role = await (
    await page.request.post('/event/manage/roles', { headers, data: { name: `Night desk ${stamp}`, code: `night-${stamp}`, description: null } })
  ).json();

  await page.getByTestId('sidebar').getByRole('link', { name: 'Roles', exact: true }).click();
  await page
    .getByRole('row')
    .filter({ hasText: `Night desk ${stamp}` })
    .getByTestId('row-link')
    .click();
  await expect(page).toHaveURL(new RegExp(`/manage/roles/assign-privileges/${role.id}$`));
  const screen = page.getByTestId('assign-privileges');
  await expect(screen).toContainText('0 of');
  // the whole Alarms group (0.2.1.x), and Events (0.2.2.0) in the Security division only
  await screen.locator('[data-testid="assign-group"][data-parent="0.2.1"] label.bp6-checkbox').first().click();
  const events = screen.locator('[data-testid="assign-code"][data-code="0.2.2.0"]');
  await events.locator('label').click();
  const security = await events
    .getByTestId('assign-reach')
    .locator('option')
    .filter({ hasText: /^\s*Security$/ })
    .getAttribute('value');
  await events.getByTestId('assign-reach').selectOption(security!);
  await shot(page, 'assign-privileges-1440');
  await screen.getByTestId('assign-save').click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `Privileges of Night desk ${stamp} saved` })
      .first(),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/manage\/roles$/);

  const ticks = (await (await page.request.get(`/event/manage/roles/${role.id}/privileges`, { headers })).json()).privileges;
  expect(ticks).toEqual([
    { code: '0.2.1.0', divisionId: null },
    { code: '0.2.1.1', divisionId: null },
    { code: '0.2.1.2', divisionId: null },
    { code: '0.2.1.3', divisionId: null },
    { code: '0.2.2.0', divisionId: Number(security) },
  ]);

  // the catalogue names the role next to each code, with the division where it is ticked for one
  await page.getByTestId('sidebar').getByRole('link', { name: 'Privileges', exact: true }).click();
  await page.getByTestId('privileges-search').fill('0.2.2');
  const row = page.locator('[data-testid="privilege"][data-code="0.2.2.0"]');
  await expect(row.getByTestId('privilege-holder').filter({ hasText: `Night desk ${stamp}` })).toContainText('in Security');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'privileges-390');
});

test('without 0.3.6.4 there is no Assign privileges, and the address is denied', async ({ page }) => {
  await signIn(page, 'auditor', { at: '/manage/roles' });
  await expect(page.getByTestId('roles').getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByTestId('row-link')).toHaveCount(0);
  await page.goto('/manage/roles/assign-privileges/1');
  await expect(page).toHaveURL(/403/);
});
