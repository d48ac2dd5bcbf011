// Overrides (issue 12): an operator holds a door unlocked from now for an hour in the generated form (the window
// starts filled in the user's zone); the door unlocks by itself and the override says it is in force; deleting it
// while in force is refused with the reason; once its end is now, the door locks again by itself.
import { expect, test } from './fixtures';
import { shot, signIn, go } from './helpers';

test('an override holds a door unlocked, is kept while in force, and the door locks again when it ends', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const name = `Open day ${stamp}`;
  await signIn(page, 'admin', { client: 'Northwind Logistics' });
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const auth = { authorization: `Bearer ${token}` };
  const doors = (await (await page.request.get('/event/manage/doors', { headers: auth })).json()).items as { id: number; name: string; status: string }[];
  const door = doors.find((d) => d.name === 'Loading Bay')!;
  await page.request.post(`/event/manage/doors/${door.id}/commands`, { headers: auth, data: { command: 'lock', force: true } });

  await page.getByTestId('sidebar').getByRole('link', { name: 'Overrides', exact: true }).click();
  await page.getByTestId('overrides').getByTestId('add-button').click();
  await page.getByLabel('Name').fill(name);
  await expect(page.getByLabel('Mode')).toHaveValue('unlocked');
  // the window starts now and lasts an hour, typed in the user's zone (the zone is named under the field)
  // (the console's one date-time field: '28 Nov 2026 14:05', the moment on data-datetime)
  const from = await page.getByRole('textbox', { name: 'From', exact: true }).inputValue();
  const until = await page.getByRole('textbox', { name: 'Until', exact: true }).inputValue();
  expect(from).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}$/);
  const moment = async (name: string) => Date.parse((await page.getByRole('textbox', { name, exact: true }).getAttribute('data-datetime'))!);
  expect((await moment('Until')) - (await moment('From'))).toBe(3_600_000);
  await expect(page.getByTestId('overrides-form')).toContainText(/In (GMT|UTC)/);
  // an end before the start is refused on the field as typed
  await page.getByRole('textbox', { name: 'Until', exact: true }).fill(from);
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('overrides-form')).toContainText('Until must be after the start');
  await page.getByRole('textbox', { name: 'Until', exact: true }).fill(until);
  await page.locator('[id="field-doorIds"]').click();
  await page.locator('[id="field-doorIds"]').fill('Loading Bay');
  await page.getByRole('option', { name: 'Loading Bay' }).first().click();
  await page.keyboard.press('Escape');
  await shot(page, 'override-form-1440');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Override saved' }).first()).toBeVisible();
  const row = page.getByTestId('overrides').getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(
    page
      .getByTestId('overrides')
      .locator('.bp6-table-cell')
      .filter({ hasText: /^In force$/ })
      .first(),
  ).toBeVisible();

  // the door unlocks by itself, on the doors screen too
  await go(page, '/configure/doors');
  const doorRow = page.getByTestId('door-row').filter({ hasText: 'Loading Bay' });
  await expect(doorRow.getByTestId('door-state')).toHaveText('Unlocked', { timeout: 20_000 });
  await shot(page, 'override-door-unlocked-1440');

  // in force: not deleted, and the reason said
  const saved = (await (await page.request.get(`/event/manage/overrides?q=${encodeURIComponent(name)}`, { headers: auth })).json()).items[0];
  expect(saved).toMatchObject({ name, mode: 'unlocked', state: 'active', doorIds: [door.id] });
  expect(Date.parse(saved.endsAt) - Date.parse(saved.startsAt)).toBe(3_600_000);
  const del = await page.request.delete(`/event/manage/overrides/${saved.id}`, { headers: auth });
  expect(del.status()).toBe(409);
  expect((await del.json()).message).toContain(`${name} is in force`);

  // ended now: the door locks again by itself
  const { id: _i, clientId: _c, createdAt: _ca, state: _s, ...input } = saved;
  const ended = await page.request.put(`/event/manage/overrides/${saved.id}`, { headers: auth, data: { ...input, endsAt: new Date().toISOString() } });
  expect(ended.status()).toBe(200);
  await expect(doorRow.getByTestId('door-state')).toHaveText('Locked', { timeout: 20_000 });
  await page.setViewportSize({ width: 390, height: 844 });
  await go(page, '/configure/override');
  await expect(page.getByTestId('overrides').getByRole('row').filter({ hasText: name })).toBeVisible();
  await expect(page.getByTestId('overrides').getByTestId('add-button')).toBeInViewport();
  await shot(page, 'overrides-390');
});
