// Threat levels (issue 12): an administrator declares a level that holds the doors locked in the generated form,
// puts it in force for the whole client for some minutes from the panel above the list (asked first, answered with
// a toast), a card is then refused at a door and the panel says who set it and when it reverts; lowering it lets the
// same card through again.
import { expect, test } from './fixtures';
import { bearer, selectClient, shot, signIn } from './helpers';

test('a threat level set from the console holds the doors, and lowering it gives them back', async ({ page }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  await signIn(page, 'admin');
  await selectClient(page, 'Northwind Logistics');
  const headers = await bearer(page);
  const door = (await (await page.request.get('/event/manage/doors', { headers })).json()).items.find((d: { name: string; mode: string }) => d.mode === 'card');
  const granted = await (await page.request.post('/api/test/simulate', { headers, data: { kind: 'card.granted', doorId: door.id } })).json();
  expect(granted.eventCode).toBe(5000);
  const card = /card (\S+)\)/.exec(granted.message)![1];
  const swipe = async () => (await (await page.request.post('/api/test/simulate', { headers, data: { kind: 'card.granted', doorId: door.id, card } })).json()).eventCode;
  const used = new Set(((await (await page.request.get('/event/manage/threat-levels?size=100', { headers })).json()).items as { rank: number }[]).map((l) => l.rank));
  const rank = [...Array(99).keys()].map((i) => i + 1).find((r) => !used.has(r))!;

  await page.getByTestId('sidebar').getByRole('link', { name: 'Threat levels', exact: true }).click();
  const screen = page.getByTestId('threat-levels');
  await expect(screen.getByTestId('threat-current')).toContainText('No threat level is in force now.');
  await screen.getByTestId('add-button').click();
  await page.locator('#field-name').fill(`Lockout ${stamp}`);
  await page.locator('#field-rank').fill(String(rank));
  await page.locator('#field-mode').selectOption('locked');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Threat level saved' }).first()).toBeVisible();

  await screen.getByTestId('threat-level').selectOption({ label: `${rank} · Lockout ${stamp}` });
  await screen.getByTestId('threat-minutes').fill('0');
  await expect(screen.getByText('A whole number of minutes from 1 to 10080')).toBeVisible();
  await expect(screen.getByTestId('threat-set')).toBeDisabled();
  await screen.getByTestId('threat-minutes').fill('30');
  await screen.getByTestId('threat-set').click();
  await expect(page.getByTestId('threat-confirm')).toContainText(`Put Lockout ${stamp} in force for the whole client? Doors held locked.`);
  await page.getByRole('button', { name: 'Set level' }).last().click();
  await expect(page.getByTestId('toast').filter({ hasText: `Lockout ${stamp} is in force: Doors held locked.` }).first()).toBeVisible();
  const current = screen.getByTestId('threat-current');
  await expect(current).toContainText(`In force: Lockout ${stamp}`);
  await expect(current).toContainText('Set by admin at');
  await expect(current).toContainText('reverts by itself at');
  expect(await swipe()).toBe(5004);
  await shot(page, 'threat-levels-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'threat-levels-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  await screen.getByTestId('threat-lower').click();
  await page.getByRole('button', { name: 'Lower to none' }).last().click();
  await expect(page.getByTestId('toast').filter({ hasText: 'No threat level is in force now.' }).first()).toBeVisible();
  await expect(current).toContainText('No threat level is in force now.');
  expect(await swipe()).toBe(5000);
});
