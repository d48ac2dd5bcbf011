// Who is inside (issue 12): a zone with hard anti-passback counts the person let in, lists them with since when, and
// an administrator forgives them from the list, so they may badge in again.
import { expect, test } from './fixtures';
import { shot, signInTo } from './helpers';

test('a zone counts who is inside, lists them, and an operator forgives one', async ({ page }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');
  const zone = await (
    await page.request.post('/event/manage/access-zones', { headers, data: { name: `Vault ${stamp}`, antiPassback: 'hard', forgiveMinutes: 0 } })
  ).json();
  const doors = (await (await page.request.get('/event/manage/doors', { headers })).json()).items as { id: number; name: string }[];
  const door = doors.find((d) => d.name === 'Roof Access')!;
  const { id: _i, clientId: _c, divisionName: _d, ...row } = await (await page.request.get(`/event/manage/doors/${door.id}`, { headers })).json();
  expect((await page.request.put(`/event/manage/doors/${door.id}`, { headers, data: { ...row, entryZoneId: zone.id } })).status()).toBe(200);
  try {
    const swipe = await (await page.request.post('/api/test/simulate', { headers, data: { kind: 'card.granted', doorId: door.id } })).json();
    expect(swipe.eventCode).toBe(5000);

    await page.goto('/configure/access-zone');
    const zoneRow = page.getByTestId('row').filter({ hasText: `Vault ${stamp}` });
    await expect(zoneRow.getByTestId('zone-inside')).toHaveText('1');
    await zoneRow.getByTestId('zone-inside').click();
    const dialog = page.getByTestId('zone-occupants');
    await expect(dialog.getByTestId('zone-occupant')).toHaveCount(1);
    await dialog.getByRole('button', { name: /^Forgive: / }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Forgiven' }).first()).toBeVisible();
    await expect(dialog).toContainText('Nobody is inside');
    await shot(page, 'zone-occupants-1440');
    await dialog.getByTestId('zone-close').click();
    await expect(zoneRow.getByTestId('zone-inside')).toHaveText('0');
  } finally {
    expect((await page.request.put(`/event/manage/doors/${door.id}`, { headers, data: { ...row, entryZoneId: null } })).status()).toBe(200);
  }
});
