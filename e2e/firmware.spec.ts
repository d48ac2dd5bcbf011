// Server → Firmware [0.7.1.0]: the Harbour administrator uploads a firmware image with its version (a file too large
// is said on the field before anything is sent); Roll out waits, saying why, until a controller is chosen on its page;
// then it rolls out; the controller installs it and the controller hub shows it running the new version, the live
// events say so. Roll back sends it back to the version it ran before, and the image's page says so per controller.
import { expect, test } from './fixtures';
import { bearer, shot, signIn, go } from './helpers';

test('the Harbour administrator uploads firmware, rolls it out to a controller, and the controller runs it', async ({ page }) => {
  test.setTimeout(120_000);
  const version = `GH-C4 5.${Date.now().toString(36).slice(-4)}`;
  await signIn(page, 'harbour');
  const headers = await bearer(page);
  const controller = (
    (await (await page.request.get('/event/manage/controllers?size=1&sort=name,asc', { headers })).json()).items as { id: number; name: string }[]
  )[0];

  await go(page, '/server/firmware');
  await page.getByTestId('firmware').getByTestId('add-button').click();
  const form = page.getByTestId('firmware-form');
  await form.getByLabel('Version').fill(version);
  // too large: said on the field, nothing sent
  await page.locator('#field-file').setInputFiles({ name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(1_500_000, 1) });
  await expect(form.getByRole('alert')).toContainText('at most');
  await page.locator('#field-file').setInputFiles({ name: 'gh-c4.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(`firmware ${version}`) });
  await expect(form.getByRole('alert')).toHaveCount(0);
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Firmware image saved' }).first()).toBeVisible();

  // its page: size and checksum; Roll out waits for the controllers to be chosen, and says so
  const open = async () => {
    await page.getByTestId('firmware').getByText(version, { exact: true }).click();
    await expect(page).toHaveURL(/\/server\/firmware\/edit\/\d+$/);
  };
  await open();
  const record = page.getByTestId('record-panel');
  await expect(record.getByTestId('record-sha256')).toContainText(/[0-9a-f]{64}/);
  await expect(record.getByTestId('record-action-rollOut')).toBeDisabled();
  await expect(record.getByTestId('record-action-rollOut-needs')).toHaveText('Choose the controllers to roll it out to, and save, first.');
  await page.locator('#field-rolloutTo').click();
  await page.locator('#field-rolloutTo').fill(controller.name);
  await page.getByRole('option', { name: controller.name }).first().click();
  await page.keyboard.press('Escape');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Firmware image saved' }).first()).toBeVisible();
  await open();
  await expect(record.getByTestId('record-action-rollOut-needs')).toHaveCount(0);
  await record.getByTestId('record-action-rollOut').click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `${version}: sent to the chosen controllers.` })
      .first(),
  ).toBeVisible();
  await expect(record.getByTestId('record-installing')).toContainText('1');
  await shot(page, 'firmware-record');
  // issue 50: the page says so as soon as the controller runs it (it said "Installing" half a minute longer), unreloaded
  await expect(record.getByTestId('record-rolloutState')).toContainText('Done', { timeout: 30_000 });
  await expect(record.getByTestId('record-installing')).toContainText('0');

  // the controller installs it: the hub shows the version running, the live events say so
  await expect(async () => {
    await go(page, '/hardware/controller-hub');
    await expect(page.getByTestId('hub-firmware').filter({ hasText: `${version} × 1` })).toBeVisible({ timeout: 8000 });
  }).toPass({ timeout: 40_000 });
  const events = (await (await page.request.get('/event/manage/events?size=50&q=Firmware', { headers })).json()).items as { message: string }[];
  expect(events.map((e) => e.message)).toContain(`Firmware installed: ${controller.name} runs ${version}`);

  // Roll back: the controller goes back to the version it ran before; the page says so, per controller
  await go(page, '/server/firmware');
  await open();
  await expect(record.getByTestId('record-rolloutState')).toContainText('Done');
  await record.getByTestId('record-action-rollBack').click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `${version}: the controllers that got it go back to the version they ran before.` })
      .first(),
  ).toBeVisible();
  await expect(record.getByTestId('record-rolloutState')).toContainText('Rolled back');
  await expect(record.getByTestId('record-progress')).toContainText(`${controller.name}: rolled back to `);
  await expect(record.getByTestId('record-action-rollBack')).toHaveCount(0);
});
