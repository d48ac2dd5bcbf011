// Lockdown (issue 12): a security operator locks down every door from the doors screen; each door shows it, offers
// nothing that opens it, and a valid card is denied ("door locked down"); releasing gives the doors back.
import { expect, test } from './fixtures';
import { shot, signIn, go } from './helpers';

test('an operator locks down every door, a card is denied at each, and the release gives the doors back', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'operator');
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const auth = { authorization: `Bearer ${token}` };
  try {
    await go(page, '/configure/doors');
    const rows = page.getByTestId('door-row');
    await expect(rows.first()).toBeVisible();
    const total = await rows.count();
    await page.getByTestId('lockdown').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Lock down all doors' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: `${total} doors are locked down` })).toBeVisible();
    await expect(page.getByTestId('door-locked-down')).toHaveCount(total);
    await expect(page.getByTestId('door-unlock')).toHaveCount(0);
    await expect(page.getByTestId('door-open')).toHaveCount(0);
    await expect(page.getByTestId('door-no-commands').first()).toHaveText('Held by the lockdown');
    await shot(page, 'doors-lockdown-1440');

    // a valid card at a locked-down door is denied, with the reason
    type DoorRow = { id: number; name: string; mode: string; status: string };
    const readDoors = async () => (await (await page.request.get('/event/manage/doors', { headers: auth })).json()).items as DoorRow[];
    // every door locked down and its strike locked; a door that is not is named with its mode and status (this check
    // once failed in CI only on its first try, without saying which door: the next failure says)
    await expect
      .poll(async () => (await readDoors()).filter((d) => d.mode !== 'locked-down' || d.status !== 'locked').map((d) => `${d.name}: ${d.mode}, ${d.status}`), {
        timeout: 10_000,
      })
      .toEqual([]);
    const doors = await readDoors();
    const person = (await (await page.request.get('/event/manage/identities?status=active&size=20', { headers: auth })).json()).items.find(
      (i: { credentials: unknown[] }) => i.credentials.length,
    );
    const swipe = await page.request.post('/api/test/simulate', {
      headers: auth,
      data: { kind: 'card.granted', doorId: doors[0].id, card: person.credentials[0].number },
    });
    expect((await swipe.json()).eventCode).toBe(5004);

    await page.getByTestId('lockdown-release').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Release lockdown' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: `${total} doors are back in the mode they had` })).toBeVisible();
    await expect(page.getByTestId('door-locked-down')).toHaveCount(0);
    await expect(page.getByTestId('lockdown')).toBeVisible();
  } finally {
    // never leave the demo client's doors locked for the specs that follow
    await page.request.post('/event/manage/doors/lockdown', { headers: auth, data: { on: false } });
  }
});

test('a lockdown of one division holds only its doors; the release gives them back', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'operator');
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const auth = { authorization: `Bearer ${token}` };
  const doors = (await (await page.request.get('/event/manage/doors', { headers: auth })).json()).items as { name: string; divisionName: string | null }[];
  // a division whose doors are a part of them (the server adds the divisions inside it: the screen's count says how many)
  const division = 'Finance'; // a division with no division inside it, holding one of the demo doors
  try {
    await go(page, '/configure/doors');
    await expect(page.getByTestId('door-row').first()).toBeVisible();
    await page.getByTestId('lockdown').click();
    await page.getByTestId('lockdown-where').selectOption({ label: division });
    await page.getByRole('alertdialog').getByRole('button', { name: 'Lock down these doors' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Lockdown' }).first()).toBeVisible();
    const held = page.getByTestId('door-row').filter({ has: page.getByTestId('door-locked-down') });
    await expect(held.first()).toBeVisible();
    const n = await held.count();
    expect(n).toBeGreaterThanOrEqual(doors.filter((d) => d.divisionName === division).length);
    expect(n).toBeLessThan(doors.length);
    for (const name of doors.filter((d) => d.divisionName === division).map((d) => d.name)) {
      await expect(page.getByTestId('door-row').filter({ hasText: name }).getByTestId('door-locked-down')).toBeVisible();
    }
    // both: more doors may be locked down, and the held ones released
    await expect(page.getByTestId('lockdown')).toHaveText('Lock down more doors');
    await page.getByTestId('lockdown-release').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Release lockdown' }).click();
    await expect(page.getByTestId('door-locked-down')).toHaveCount(0);
  } finally {
    await page.request.post('/event/manage/doors/lockdown', { headers: auth, data: { on: false } });
  }
});
