// What-if preview (issue 12): before saving a schedule, an administrator previews what it would do — taking Sunday out
// of "Always" loses everyone on it 24 of the week's 168 hours at every door — and leaves without saving.
import { expect, test } from './fixtures';
import { shot, signInTo } from './helpers';

test('previewing a schedule change lists who loses which doors, and saves nothing', async ({ page }) => {
  test.setTimeout(90_000);
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');
  const always = (await (await page.request.get('/event/manage/schedules?q=Always', { headers })).json()).items.find(
    (s: { name: string }) => s.name === 'Always',
  );

  await page.goto(`/configure/schedule/edit/${always.id}`);
  await expect(page.getByTestId('schedules-form')).toBeVisible();
  // unchanged: nobody gains or loses
  await page.getByTestId('what-if').click();
  const dialog = page.getByTestId('what-if-dialog');
  await expect(dialog).toContainText('Nobody gains or loses access');
  await dialog.getByTestId('what-if-close').click();

  // Sunday out
  const days = await page.locator('[id^="field-windows["][id$="].day"]').evaluateAll((els) => els.map((e) => (e as HTMLSelectElement).value));
  const sunday = days.indexOf('0');
  expect(sunday).toBeGreaterThanOrEqual(0);
  await page.getByRole('button', { name: `Remove window ${sunday + 1}` }).click();
  await page.getByTestId('what-if').click();
  // people and doors counted apart (issue 29: it said "232 people lose access (232 doors)")
  const losses = dialog.getByTestId('what-if-losses');
  await expect(losses).toHaveText(/^Lose access: \d+ people, \d+ doors?$/);
  await expect(dialog.getByTestId('what-if-gains')).toHaveText('Gain access: 0 people, 0 doors');
  const rows = dialog.getByTestId('what-if-loss');
  await expect(rows.first()).toContainText('168 → 144');
  expect(await rows.count()).toBeGreaterThan(10);
  const [, people, doors] = /(\d+) people, (\d+) door/.exec((await losses.textContent()) ?? '')!.map(Number);
  const shown = await rows.evaluateAll((trs) => trs.map((tr) => [tr.children[0].textContent, tr.children[1].textContent]));
  expect(people).toBeGreaterThanOrEqual(new Set(shown.map(([who]) => who)).size);
  expect(doors).toBeGreaterThanOrEqual(new Set(shown.map(([, door]) => door)).size);
  expect(doors).toBeLessThan(shown.length); // many people share a door: pairs are not doors
  await shot(page, 'what-if-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'what-if-390');
  await dialog.getByTestId('what-if-close').click();

  // leaving without saving: the schedule is as it was
  await page.getByTestId('form-cancel').click();
  await page.getByRole('button', { name: 'Discard changes' }).click();
  const after = await (await page.request.get(`/event/manage/schedules/${always.id}`, { headers })).json();
  expect(after.windows).toHaveLength(7);
});
