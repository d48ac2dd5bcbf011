// Logical blocks (issue 12): an administrator builds "when the Loading Bay contact becomes active, pulse the Store
// Room strike" in the generated form (a pulse without its output is refused on the field); the input trips, and the
// live events show the output pulsed by the block, then back to idle. An output is pulsed by hand from its list row.
import { expect, test } from './fixtures';
import { readFileSync } from 'node:fs';
import { pick, shot, signIn, signInTo, go } from './helpers';

test('a logical block pulses an output when its input becomes active, and says so in the live events', async ({ page }, info) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');
  // a one-second pulse, so the output is seen going back to idle
  const outputs = (await (await page.request.get('/event/manage/outputs?q=Store%20Room%20strike', { headers })).json()).items;
  const { id: outputId, clientId: _c, createdAt: _a, controllerName: _n, doorName: _d, boardName: _b, ...output } = outputs[0];
  expect((await page.request.put(`/event/manage/outputs/${outputId}`, { headers, data: { ...output, pulseSeconds: 1 } })).status()).toBe(200);

  await page.getByTestId('sidebar').getByRole('link', { name: 'Logical blocks', exact: true }).click();
  await page.getByTestId('logical-blocks').getByTestId('add-button').click();
  await page.locator('#field-name').fill(`Dock alert ${stamp}`);
  await page.locator('#field-trigger').selectOption('input.active');
  await pick(page, 'inputId', 'Loading Bay contact');
  await page.locator('#field-action').selectOption('pulse-output');
  // a pulse without its output is refused on the field, and what was typed stays
  await page.getByTestId('form-save').click();
  await expect(page.locator('#field-outputId').locator('xpath=ancestor::*[contains(@class,"bp6-form-group")]')).toContainText('is required to pulse an output');
  await expect(page.locator('#field-name')).toHaveValue(`Dock alert ${stamp}`);
  await pick(page, 'outputId', 'Store Room strike');
  await shot(page, 'logical-block-form-1440');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Logical block saved' }).first()).toBeVisible();
  await expect(
    page
      .getByTestId('logical-blocks')
      .getByRole('row')
      .filter({ hasText: `Dock alert ${stamp}` }),
  ).toBeVisible();
  await shot(page, 'logical-blocks-1440');

  // the input trips: the live events show the strike pulsed by the block, then idle again
  await page.getByTestId('sidebar').getByRole('link', { name: 'Events', exact: true }).click();
  const input = (await (await page.request.get('/event/manage/inputs?q=Loading%20Bay%20contact', { headers })).json()).items[0];
  expect((await page.request.post('/api/test/simulate', { headers, data: { kind: 'input.active', inputId: input.id } })).status()).toBe(200);
  await expect(page.getByText(`Store Room strike, pulsed by logical block Dock alert ${stamp} for 1 s`).first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Store Room strike (pulse ended)').first()).toBeVisible({ timeout: 15_000 });
  await shot(page, 'logical-block-events-1440');

  // by hand, from the outputs list
  await go(page, '/hardware/output');
  await page.getByTestId('outputs-list').getByLabel('Filter outputs').fill('Store Room strike');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Pulse: Store Room strike' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Store Room strike pulsed' }).first()).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'outputs-pulse-390');
  const now = await (await page.request.get(`/event/manage/outputs/${outputId}`, { headers })).json();
  expect(
    (await page.request.put(`/event/manage/outputs/${outputId}`, { headers, data: { ...output, updatedAt: now.updatedAt, pulseSeconds: 5 } })).status(),
  ).toBe(200);

  // the row action's command took the row and the action, never the toast's text (its input is journaled)
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('sidebar').getByRole('link', { name: 'Journal replay', exact: true }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export journal' }).click();
  const file = info.outputPath('journal.ndjson');
  await (await download).saveAs(file);
  const runs = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => /^commands:outputs#\d+$/.test(e.actor) && e.event?.type === 'command.run' && e.event.command === 'action');
  expect(runs.map((e) => e.event.input)).toEqual([{ id: outputId, action: 'pulse' }]);
});

test('without 0.5.4.2 there is no Pulse', async ({ page }) => {
  await signIn(page, 'auditor'); // sees the outputs, changes nothing
  await go(page, '/hardware/output');
  await expect(page.getByTestId('outputs-list').getByTestId('row').first()).toBeVisible();
  await expect(page.getByTestId('row-action')).toHaveCount(0);
});
