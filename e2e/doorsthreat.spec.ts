// The doors screen for a security operator (door control, 0.4.5.4, without the threat level codes 0.4.4.x): the
// threat levels screen refuses them, yet the doors screen shows the level in force and sets one for a site — asked
// first, answered in a toast, the panel saying where it holds and that everywhere else has none. Another console's
// change (the administrator's) arrives as the change notice; the operator lowers it from the panel. On a 390-px
// phone each door is a card (issue 29), and a door's command button is on screen and works.
import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { shot, signIn } from './helpers';

const CURRENT = '/event/manage/threat-levels/current';

/** An administrator's headers with Northwind selected (levels are arranged through the API the console uses). */
async function admin(request: APIRequestContext): Promise<{ authorization: string }> {
  const login = await request.post('/idp/1.0/login', { data: { username: 'admin', password: 'Gatehouse1!' } });
  expect(login.ok()).toBe(true);
  const auth = { authorization: `Bearer ${(await login.json()).token}` };
  const clients = await (await request.get('/central/1.0/clients', { headers: auth })).json();
  const northwind = clients.items.find((c: { code: string }) => c.code === 'NORTHWIND').id;
  const selected = await request.put('/idp/1.0/me/client', { headers: auth, data: { clientId: northwind } });
  expect(selected.ok()).toBe(true);
  return { authorization: `Bearer ${(await selected.json()).token}` };
}

async function operatorOnDoors(page: Page) {
  await signIn(page, 'operator', { at: '/configure/doors' });
  await expect(page.getByTestId('doors-table')).toBeVisible();
}

test("a security operator sets a threat level for one site from the doors screen, hears the administrator's change, and lowers it", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const headers = await admin(request);
  const stamp = Date.now().toString(36);
  const used = new Set(
    ((await (await request.get('/event/manage/threat-levels?size=100', { headers })).json()).items as { rank: number }[]).map((l) => l.rank),
  );
  const rank = [...Array(99).keys()].map((i) => i + 1).find((r) => !used.has(r))!;
  const made = await request.post('/event/manage/threat-levels', {
    headers,
    data: { name: `Watch ${stamp}`, rank, mode: 'card-pin', description: null, exemptGroupIds: [] },
  });
  expect(made.status()).toBe(201);
  const level = (await made.json()).id as number;
  expect((await request.post(CURRENT, { headers, data: { levelId: null } })).ok()).toBe(true);

  await signIn(page, 'operator', { at: '/configure/threat-levels' });
  await expect(page.getByText('Access denied')).toBeVisible();
  await page.goto('/configure/doors');
  const panel = page.getByTestId('doors-threat');
  await expect(panel.getByTestId('doors-threat-current')).toContainText('None in force: the doors work as configured.');

  await panel.getByTestId('doors-threat-open').click();
  await panel.getByTestId('doors-threat-choose').selectOption({ label: `${rank} · Watch ${stamp}` });
  // the operator controls every door of Northwind: the whole client is offered, and each site
  await expect(panel.getByTestId('doors-threat-where').locator('option').first()).toHaveText('the whole client');
  await panel.getByTestId('doors-threat-where').selectOption({ label: 'Warehouse' });
  await panel.getByTestId('doors-threat-minutes').fill('30');
  await shot(page, 'doors-threat-form-1440');
  await panel.getByTestId('doors-threat-set').click();
  await expect(page.getByTestId('doors-threat-confirm')).toContainText(`Put Watch ${stamp} in force for Warehouse? Card and PIN at every door.`);
  await page.getByRole('alertdialog').getByRole('button', { name: 'Set level', exact: true }).click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `Watch ${stamp} is in force: Card and PIN at every door.` })
      .first(),
  ).toBeVisible();
  const current = panel.getByTestId('doors-threat-current');
  await expect(current).toContainText(`Watch ${stamp}`);
  await expect(current).toContainText('Warehouse: Card and PIN at every door');
  await expect(current).toContainText('Everywhere else: none');
  await expect(current).toContainText('Set by Sam Operator at');
  await expect(current).toContainText('reverts by itself at');
  await expect(panel.getByTestId('doors-threat-form')).toBeHidden();
  const state = await (await request.get(CURRENT, { headers })).json();
  expect(state).toMatchObject({ level: { id: level }, divisionName: 'Warehouse', setBy: 'operator' });
  await shot(page, 'doors-threat-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(panel.getByTestId('doors-threat-lower')).toBeInViewport();
  await shot(page, 'doors-threat-390');
  // the form to change it stacks one field a line, each as wide as the card
  await panel.getByTestId('doors-threat-open').click();
  await expect(panel.getByTestId('doors-threat-set')).toBeInViewport();
  const where = (await panel.getByTestId('doors-threat-where').boundingBox())!;
  expect(where.x + where.width).toBeLessThanOrEqual(390);
  await shot(page, 'doors-threat-form-390');
  await panel.getByTestId('doors-threat-open').click();
  await expect(panel.getByTestId('doors-threat-form')).toBeHidden();
  await page.setViewportSize({ width: 1440, height: 900 });

  // the administrator puts it in force for the whole client elsewhere: the panel reads it from the change notice
  expect((await request.post(CURRENT, { headers, data: { levelId: level } })).ok()).toBe(true);
  await expect(current).toContainText('the whole client: Card and PIN at every door');
  await expect(current).toContainText('Set by Alex Admin at');
  await expect(current).toContainText('until lowered');
  await expect(panel.getByTestId('doors-threat-elsewhere')).toBeHidden();

  await panel.getByTestId('doors-threat-lower').click();
  await expect(page.getByTestId('doors-threat-confirm')).toContainText('Lower the threat level?');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Lower to none', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'No threat level is in force now.' }).first()).toBeVisible();
  await expect(current).toContainText('None in force: the doors work as configured.');
  expect((await (await request.get(CURRENT, { headers })).json()).level).toBeNull();
});

test('on a 390-px phone each door is a card and a door command button is on screen and works', async ({ page, request }) => {
  const headers = await admin(request);
  const doors = (await (await request.get('/event/manage/doors', { headers })).json()).items as { id: number; name: string; mode: string }[];
  const door = doors.find((d) => d.mode === 'card')!;
  expect((await request.post(`/event/manage/doors/${door.id}/commands`, { headers, data: { command: 'unlock', force: true } })).ok()).toBe(true);

  await page.setViewportSize({ width: 390, height: 844 });
  await operatorOnDoors(page);
  // neither the page nor the table's box runs off the side: each door is a card as wide as the screen
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const box = page.getByTestId('doors-table-scroll');
  await expect.poll(() => box.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const lock = page
    .getByTestId('door-row')
    .filter({ has: page.getByText(door.name, { exact: true }) })
    .getByTestId('door-lock');
  await lock.scrollIntoViewIfNeeded();
  await expect(lock).toBeInViewport({ ratio: 1 });
  const at = (await lock.boundingBox())!;
  expect(at.x).toBeGreaterThanOrEqual(0);
  expect(at.x + at.width).toBeLessThanOrEqual(390);
  // every command of a row is in reach: the last one of another door too (only looked at: Unlock asks first)
  const other = page
    .getByTestId('door-row')
    .filter({ hasNot: page.getByText(door.name, { exact: true }) })
    .first();
  const last = other.getByRole('button').last();
  await last.scrollIntoViewIfNeeded();
  // (a pixel may fall under the box's rounding: in reach means all but a sliver is on screen)
  await expect(last).toBeInViewport({ ratio: 0.95 });
  const end = (await last.boundingBox())!;
  expect(end.x + end.width).toBeLessThanOrEqual(391);
  await lock.scrollIntoViewIfNeeded();
  await shot(page, 'doors-cards-390');
  await lock.click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `${door.name} locked.` })
      .first(),
  ).toBeVisible();
});
