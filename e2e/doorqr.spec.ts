// Door QR codes (issue 12): an administrator turns QR codes on at a door and shows a credential's current code; the
// code opens the door while it is current, the previous period's does not, and none opens it once turned off.
import { expect, test } from './fixtures';
import { shot, signInTo } from './helpers';

test('a rotating QR code opens a door only while it is current', async ({ page }) => {
  test.setTimeout(120_000);
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');
  const door = (await (await page.request.get('/event/manage/doors', { headers })).json()).items.find((d: { name: string }) => d.name === 'Server Room');
  // a card the engine lets through this door now
  const granted = await (await page.request.post('/api/test/simulate', { headers, data: { kind: 'card.granted', doorId: door.id } })).json();
  expect(granted.eventCode).toBe(5000);
  const card = /card (\S+)\)/.exec(granted.message)![1];
  const present = async (qr: string) =>
    await (await page.request.post('/api/test/simulate', { headers, data: { kind: 'qr.presented', doorId: door.id, qr } })).json();

  await page.getByTestId('sidebar').getByRole('link', { name: 'Door QR', exact: true }).click();
  const row = page.getByTestId('door-qr-row').filter({ hasText: 'Server Room' });
  const toggle = row.locator('label.bp6-switch'); // click the switch as a person does
  const box = row.locator('input[type="checkbox"]');
  if (await box.isChecked()) {
    // left on by an earlier run: start from off
    await toggle.click();
    await page.getByRole('button', { name: 'Turn off' }).click();
    await expect(box).not.toBeChecked();
  }
  await toggle.click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Server Room takes QR codes now' }).first()).toBeVisible();
  await expect(box).toBeChecked();

  await row.getByTestId('door-qr-show').click();
  const panel = page.getByTestId('door-qr-panel');
  await panel.getByLabel('Credential number').fill('NOPE-1');
  await panel.getByTestId('door-qr-ask').click();
  await expect(panel.getByTestId('door-qr-problem')).toContainText('Credential is not a credential of this client');
  await panel.getByLabel('Credential number').fill(card);
  await panel.getByTestId('door-qr-ask').click();
  const shown = panel.getByTestId('door-qr-code');
  await expect(shown.locator('img')).toBeVisible();
  await expect(panel.getByTestId('door-qr-valid')).toContainText('Current until');
  await shot(page, 'door-qr-1440');
  // a code about to roll over would race the next step: wait for the next one
  const left = Number(/\((\d+) s\)/.exec(await panel.getByTestId('door-qr-valid').innerText())![1]);
  const first = await shown.getAttribute('data-code');
  if (left < 4) await expect(shown).not.toHaveAttribute('data-code', first!, { timeout: 10_000 });
  const code = (await shown.getAttribute('data-code'))!;
  expect(code).toMatch(/^GHQ\./);
  expect((await present(code)).eventCode).toBe(5000);

  const old = await (
    await page.request.get(`/event/manage/doors/${door.id}/qr/code?credential=${card}&at=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`, {
      headers,
    })
  ).json();
  expect((await present(old.code)).eventCode).toBe(5012);

  // a new secret made elsewhere (another operator, the API): the server announces it on /dynamic-qr and the open
  // panel draws the new code at once, long before the period's end would have renewed it
  const leftNow = Number(/\((\d+) s\)/.exec(await panel.getByTestId('door-qr-valid').innerText())![1]);
  if (leftNow < 10) await expect(shown).not.toHaveAttribute('data-code', code, { timeout: 15_000 });
  const current = (await shown.getAttribute('data-code'))!;
  expect((await page.request.post(`/event/manage/doors/${door.id}/qr`, { headers, data: { on: true } })).ok()).toBe(true);
  await expect(shown).not.toHaveAttribute('data-code', current, { timeout: 5_000 });
  const renewed = (await shown.getAttribute('data-code'))!;
  expect((await present(current)).eventCode).toBe(5012);
  expect((await present(renewed)).eventCode).toBe(5000);

  await page.keyboard.press('Escape');
  await toggle.click();
  await page.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Server Room takes no QR codes now' }).first()).toBeVisible();
  expect((await present(code)).eventCode).toBe(5012);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'door-qr-390');
});
