// The visitor section's set-up lists and the attendance set-up (§2 Visitor 1.1–1.3, Attendance 3.0, 3.1, 3.7) are
// catalogue screens: a receptionist keeps the visit types and adds a box of visitor cards at once (1.2.4), HR the leave categories (reached from the attendance
// screen, since attendance children are not in the sidebar), and a holder of the view code alone opens an attendance
// record read-only (§2: edit/{id} [3.7.2 or 3.7.0]).
import { expect, test, type Page } from './fixtures';
import { signIn } from './helpers';
import { signOut } from './console.helpers';

async function saved(page: Page, what: string) {
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `${what} saved` })
      .first(),
  ).toBeVisible();
}

test('a receptionist adds a visit type; HR adds a leave category from the attendance screen; an auditor only looks', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36).slice(-5).toUpperCase();

  await signIn(page, 'reception');
  const sidebar = page.getByTestId('sidebar');
  for (const entry of ['Visitor tenants', 'Visitor credentials', 'Visit types'])
    await expect(sidebar.getByRole('link', { name: entry, exact: true })).toBeVisible();
  await sidebar.getByRole('link', { name: 'Visit types', exact: true }).click();
  const types = page.getByTestId('visit-types');
  await expect(types.getByRole('row').filter({ hasText: 'Interview' })).toBeVisible(); // seeded
  await types.getByTestId('add-button').click();
  await page.getByLabel('Name').fill(`Site tour ${stamp}`);
  await page.getByLabel('Usual length (minutes)').fill('2');
  await page.getByTestId('form-save').click();
  // refused on its field, the name as typed kept
  await expect(page.getByTestId('visitTypes-form')).toContainText('must be at least 5');
  await expect(page.getByLabel('Name')).toHaveValue(`Site tour ${stamp}`);
  await page.getByLabel('Usual length (minutes)').fill('45');
  await page.getByTestId('form-save').click();
  await saved(page, 'Visit type');
  await expect(types.getByRole('row').filter({ hasText: `Site tour ${stamp}` })).toBeVisible();
  const rtoken = await page.evaluate(() => localStorage.getItem('jwt'));
  const stored = await (
    await page.request.get(`/visitor/1.0/visit-types?q=${encodeURIComponent(`Site tour ${stamp}`)}`, { headers: { authorization: `Bearer ${rtoken}` } })
  ).json();
  expect(stored.items.map((x: { name: string; defaultMinutes: number }) => [x.name, x.defaultMinutes])).toEqual([[`Site tour ${stamp}`, 45]]);

  // a box of 30 cards at once (1.2.4): the form says what it will add; the same box again is refused on its field
  await sidebar.getByRole('link', { name: 'Visitor credentials', exact: true }).click();
  await page.getByTestId('toolbar-link-batch-add').click();
  await page.getByLabel('Prefix').fill(`b${stamp.slice(0, 3)}-`.toLowerCase()); // typed in capitals
  await page.getByLabel('First number').fill('1');
  await page.getByLabel('How many').fill('30');
  await page.getByLabel('Digits').fill('3');
  const prefix = `B${stamp.slice(0, 3)}-`;
  await expect(page.getByTestId('batch-preview')).toHaveText(`Adds 30: ${prefix}001 to ${prefix}030, each available.`);
  await page.getByTestId('form-save').click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `30 added: ${prefix}001 to ${prefix}030.` })
      .first(),
  ).toBeVisible();
  await expect(page.getByTestId('visitor-credentials')).toBeVisible();
  await page.getByTestId('toolbar-link-batch-add').click();
  await page.getByLabel('Prefix').fill(prefix);
  await page.getByLabel('First number').fill('21');
  await page.getByLabel('How many').fill('5');
  await page.getByLabel('Digits').fill('3');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('visitor-credential-batch')).toContainText(`takes numbers already in use: ${prefix}021 and 4 more`);
  await expect(page.getByLabel('How many')).toHaveValue('5');
  await signOut(page);

  await signIn(page, 'hr', { at: '/attendance' });
  await page
    .getByTestId('attendance-hub')
    .getByRole('link', { name: /Leave categories/ })
    .click();
  const leave = page.getByTestId('leave-categories');
  await expect(leave.getByRole('row').filter({ hasText: 'Annual leave' })).toBeVisible();
  await leave.getByTestId('add-button').click();
  await page.getByLabel('Name').fill(`Parental leave ${stamp}`);
  await page.getByLabel('Code').fill('AL'); // taken: refused on the field
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('leaveCategories-form')).toContainText('is already the code of another leave category');
  await page.getByLabel('Code').fill(`P${stamp}`.slice(0, 10));
  await page.getByTestId('form-save').click();
  await saved(page, 'Leave category');
  await expect(leave.getByRole('row').filter({ hasText: `Parental leave ${stamp}` })).toBeVisible();
  await signOut(page);

  // the auditor holds 3.7.0 and not 3.7.2: the record opens, read-only, with nothing to save
  await signIn(page, 'auditor', { at: '/attendance/leave-category' });
  await page.getByTestId('leave-categories').locator('a', { hasText: 'Annual leave' }).click();
  await expect(page.getByTestId('form-read-only')).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Annual leave');
  await expect(page.getByLabel('Name')).toBeDisabled();
  await expect(page.getByTestId('form-save')).toHaveCount(0);
  // and the server refuses a change from it all the same
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const list = await (await page.request.get('/event/attendance/leave-categories?size=10', { headers: { authorization: `Bearer ${token}` } })).json();
  const annual = list.items.find((x: { name: string }) => x.name === 'Annual leave');
  const put = await page.request.put(`/event/attendance/leave-categories/${annual.id}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { ...annual, daysPerYear: 99 },
  });
  expect(put.status()).toBe(403);
});
