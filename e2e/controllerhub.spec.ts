// Controller hub (issue 12): every controller of the client at a glance; a controller going offline turns its card
// red, moves it first and is counted at once (live heart-beats), and its diagnostic opens from the card.
import { expect, test } from './fixtures';
import { shot, signInTo } from './helpers';

test('the hub shows every controller live; one going offline is counted and listed first', async ({ page }) => {
  test.setTimeout(90_000);
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');
  const controllers = (await (await page.request.get('/event/manage/controllers?sort=name,desc', { headers })).json()).items as {
    id: number;
    name: string;
    ipAddress: string;
  }[];
  const n = controllers.length;
  // whatever earlier specs left offline comes back first
  for (const c of controllers) await page.request.post('/api/test/simulate', { headers, data: { kind: 'interface.online', controllerId: c.id } });
  await page.getByTestId('sidebar').getByRole('link', { name: 'Controller hub', exact: true }).click();
  const hub = page.getByTestId('controller-hub');
  const cards = hub.getByTestId('hub-controller');
  await expect(cards).toHaveCount(n);
  await expect(hub.getByTestId('hub-offline')).toHaveText(`All ${n} online`);
  await expect(hub.getByTestId('hub-firmware').first()).toContainText('GH-C4 4.2.1 ×');
  const last = controllers[0];
  try {
    await page.request.post('/api/test/simulate', { headers, data: { kind: 'interface.offline', controllerId: last.id } });
    await expect(hub.getByTestId('hub-offline')).toHaveText(`1 of ${n} offline`);
    await expect(cards.first()).toHaveAttribute('aria-label', last.name);
    await expect(cards.first().getByTestId('hub-status')).toHaveText('Offline');
    await hub.locator('label.bp6-switch').filter({ hasText: 'Offline only' }).click();
    await expect(cards).toHaveCount(1);
    await shot(page, 'controller-hub-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'controller-hub-390');
    await cards.first().getByTestId('hub-diagnostic').click();
    await expect(page).toHaveURL(new RegExp(`/hardware/controllers/diagnostic/${last.ipAddress.replace(/\./g, '\\.')}$`));
  } finally {
    await page.request.post('/api/test/simulate', { headers, data: { kind: 'interface.online', controllerId: last.id } });
  }
});
