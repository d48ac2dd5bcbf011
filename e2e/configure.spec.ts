// The Configure screens come from the catalogue (issue 12): an administrator builds a night shift, an access group
// that opens the Loading Bay on it for one identity, two new doors (one on card and PIN, entering a zone) and a
// mantrap of them — all in the console, through the
// generated lists and forms with their reference pickers — and the server holds exactly what was picked. The add
// forms start from the declarations' defaults (issue 11: a switch declared off starts off).
import { expect, test, type Page } from './fixtures';
import { pick, shot, signIn, go } from './helpers';

async function saved(page: Page, what: string) {
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `${what} saved` })
      .first(),
  ).toBeVisible();
}

test('schedules, access groups and interlocking groups are built in the generated screens, with pickers, and stored as picked', async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  await signIn(page, 'admin', { client: 'Northwind Logistics' });

  // a schedule: the sidebar entry, the generated list, its add form with a repeated window row
  await page.getByTestId('sidebar').getByRole('link', { name: 'Schedules', exact: true }).click();
  await expect(page.getByTestId('schedules')).toBeVisible();
  await page.getByTestId('schedules').getByTestId('add-button').click();
  await page.getByLabel('Name').fill(`Night shift ${stamp}`);
  await page.getByTestId('add-windows').click();
  await page.locator('[id="field-windows[0].day"]').selectOption('1');
  await page.locator('[id="field-windows[0].start"]').fill('22:00');
  await page.locator('[id="field-windows[0].end"]').fill('25:00');
  await page.getByTestId('form-save').click();
  // a wrong time is refused on its field, and what was typed stays
  await expect(page.getByTestId('repeat-windows')).toContainText('End is not in the expected form: HH:mm');
  await expect(page.getByLabel('Name')).toHaveValue(`Night shift ${stamp}`);
  await page.locator('[id="field-windows[0].end"]').fill('06:00');
  await page.getByTestId('form-save').click();
  await saved(page, 'Schedule');
  await expect(
    page
      .getByTestId('schedules')
      .getByRole('row')
      .filter({ hasText: `Night shift ${stamp}` }),
  ).toBeVisible();

  // a special date's "Every year" is declared off: the add form starts with it off
  await go(page, '/configure/special-date/add');
  await expect(page.getByLabel('Every year')).not.toBeChecked();
  // a card format starts from the declared Wiegand 26 layout
  await go(page, '/hardware/card-format/add');
  await expect(page.getByLabel('Length (bits)')).toHaveValue('26');

  // an access group: a door × schedule row picked by name, and a member found by search
  await go(page, '/configure/access-group');
  await page.getByTestId('access-groups').getByTestId('add-button').click();
  await page.getByLabel('Name').fill(`Night crew ${stamp}`);
  await page.getByTestId('add-doors').click();
  await pick(page, 'doors[0].doorId', 'Loading Bay');
  await pick(page, 'doors[0].scheduleId', `Night shift ${stamp}`);
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const auth = { authorization: `Bearer ${token}` };
  const someone = (await (await page.request.get('/event/manage/identities?size=1&sort=lastName,desc', { headers: auth })).json()).items[0];
  await page.locator('[id="field-members"]').click();
  await page.locator('[id="field-members"]').fill(someone.employeeNo); // searched by employee number: one match
  await expect(page.getByRole('option')).toHaveCount(1);
  await page.getByRole('option', { name: new RegExp(someone.lastName) }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('accessGroups-form').locator('.bp6-tag')).toHaveCount(1);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'configure-access-group-form-390');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId('form-save').click();
  await saved(page, 'Access group');

  const groups = (await (await page.request.get(`/event/manage/access-groups?q=${encodeURIComponent(`Night crew ${stamp}`)}`, { headers: auth })).json()).items;
  expect(groups).toHaveLength(1);
  const doors = (await (await page.request.get('/event/manage/doors', { headers: auth })).json()).items;
  const schedules = (await (await page.request.get(`/event/manage/schedules?q=${encodeURIComponent(`Night shift ${stamp}`)}`, { headers: auth })).json()).items;
  expect(groups[0].doors).toEqual([
    expect.objectContaining({ doorId: doors.find((d: { name: string }) => d.name === 'Loading Bay').id, scheduleId: schedules[0].id }),
  ]);
  expect(groups[0].members).toEqual([someone.id]);
  expect(schedules[0].windows).toEqual([expect.objectContaining({ day: '1', start: '22:00', end: '06:00' })]);

  // the edit form names what was picked (labels by id), not numbers
  await go(page, `/configure/access-group/edit/${groups[0].id}`);
  await expect(page.locator('[id="field-doors[0].doorId"]')).toHaveText(/Loading Bay/);
  await expect(page.locator('[id="field-doors[0].scheduleId"]')).toHaveText(new RegExp(`Night shift ${stamp}`));
  await shot(page, 'configure-access-group-edit-1440');

  // two new doors from the doors screen (Add door, the generated form); one edited: card and PIN, entering a zone
  const gates = [`North gate ${stamp}`, `South gate ${stamp}`];
  await go(page, '/configure/access-zone/add');
  await page.getByLabel('Name').fill(`Yard ${stamp}`);
  await page.getByLabel('Anti-passback').selectOption('hard');
  await page.getByTestId('form-save').click();
  await saved(page, 'Access zone');
  for (const name of gates) {
    await go(page, '/configure/doors');
    await page.getByTestId('add-door').click();
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Division').selectOption({ index: 1 });
    await page.getByTestId('form-save').click();
    await saved(page, 'Door');
    await expect(page.getByTestId('door-row').filter({ hasText: name })).toBeVisible();
  }
  await page.getByTestId('door-row').filter({ hasText: gates[0] }).getByTestId('door-edit').click();
  await page.getByLabel('Mode').selectOption('card-pin');
  await pick(page, 'entryZoneId', `Yard ${stamp}`);
  await page.getByTestId('form-save').click();
  await saved(page, 'Door');
  const allDoors = (await (await page.request.get('/event/manage/doors', { headers: auth })).json()).items as { id: number; name: string }[];
  const gateIds = gates.map((g) => allDoors.find((d) => d.name === g)!.id);
  const edited = await (await page.request.get(`/event/manage/doors/${gateIds[0]}`, { headers: auth })).json();
  const zones = (await (await page.request.get(`/event/manage/access-zones?q=${encodeURIComponent(`Yard ${stamp}`)}`, { headers: auth })).json()).items;
  expect(edited).toMatchObject({ name: gates[0], mode: 'card-pin', entryZoneId: zones[0].id });

  // an interlocking group of the two new doors
  await go(page, '/configure/interlocking-groups/add');
  await page.getByLabel('Name').fill(`Mantrap ${stamp}`);
  for (const name of gates) {
    await page.locator('[id="field-doorIds"]').click();
    await page.locator('[id="field-doorIds"]').fill(name);
    await page.getByRole('option', { name }).first().click();
  }
  await page.keyboard.press('Escape');
  await page.getByTestId('form-save').click();
  await saved(page, 'Interlocking group');
  const locks = (await (await page.request.get(`/event/manage/interlocking-groups?q=${encodeURIComponent(`Mantrap ${stamp}`)}`, { headers: auth })).json())
    .items;
  expect([...locks[0].doorIds].sort()).toEqual([...gateIds].sort());
  await expect(
    page
      .getByTestId('interlocks')
      .getByRole('row')
      .filter({ hasText: `Mantrap ${stamp}` }),
  ).toBeVisible();
});

test('hardware: a controller’s settings are checked and saved, and a card reader is wired to a door', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  await signIn(page, 'admin', { client: 'Northwind Logistics' });

  // controllers are enrolled, not added: the list has no Add; a name opens its settings
  await page.getByTestId('sidebar').getByRole('link', { name: 'Controllers', exact: true }).click();
  const list = page.getByTestId('controllers');
  await expect(list.getByRole('row').filter({ hasText: 'NW-CTRL-03' })).toBeVisible();
  await expect(list.getByTestId('add-button')).toHaveCount(0);
  // a name opens the controller's diagnostic: its status, firmware and a ping that answers; Settings from there
  await list.locator('a', { hasText: 'NW-CTRL-03' }).click();
  await expect(page).toHaveURL(/\/hardware\/controllers\/diagnostic\/10\.1\.0\.\d+$/);
  const diag = page.getByTestId('controller-diagnostic');
  await expect(diag.getByTestId('diagnostic-status')).toHaveText('Online');
  await expect(diag.getByTestId('diagnostic-firmware')).toHaveText('GH-C4 4.2.1');
  await diag.getByTestId('diagnostic-ping').click();
  await expect(diag.getByTestId('diagnostic-pings')).toContainText(/Reply in \d+ ms/);
  await shot(page, 'controller-diagnostic-1440');
  await page.getByTestId('diagnostic-settings').click();
  await expect(page).toHaveURL(/\/hardware\/controllers\/settings\/\d+$/);
  await expect(page.locator('.gh-page-header__title:visible')).toHaveText('Controller settings');
  await page.getByLabel('IP address').fill('10.1.0.300');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('controllers-form')).toContainText('IP address is not in the expected form: IPv4');
  await page.getByLabel('IP address').fill('10.1.0.99');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Controller saved' }).first()).toBeVisible();
  await expect(
    list
      .locator('.bp6-table-cell')
      .filter({ hasText: /^10\.1\.0\.99$/ })
      .first(),
  ).toBeVisible();

  // a reader: the exit reader of the Loading Bay on the second controller
  await go(page, '/hardware/card-reader');
  await expect(page.getByTestId('card-readers').getByRole('row').filter({ hasText: 'Loading Bay reader' })).toBeVisible(); // seeded
  await page.getByTestId('card-readers').getByTestId('add-button').click();
  await page.getByLabel('Name').fill(`Dock exit ${stamp}`);
  await pick(page, 'doorId', 'Loading Bay');
  await page.getByLabel('Direction').selectOption('exit');
  await pick(page, 'controllerId', 'NW-CTRL-02');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Card reader saved' }).first()).toBeVisible();
  const row = page
    .getByTestId('card-readers')
    .getByRole('row')
    .filter({ hasText: `Dock exit ${stamp}` });
  await expect(row).toBeVisible();
  await shot(page, 'hardware-card-readers-1440');
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const readers = (
    await (
      await page.request.get(`/event/manage/card-readers?q=${encodeURIComponent(`Dock exit ${stamp}`)}`, { headers: { authorization: `Bearer ${token}` } })
    ).json()
  ).items;
  expect(readers).toEqual([expect.objectContaining({ doorName: 'Loading Bay', direction: 'exit', controllerName: 'NW-CTRL-02' })]);
});
