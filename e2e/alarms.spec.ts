// Live alarms end to end: the hardware simulator forces a door open, the alarm reaches every console of the
// tenant over STOMP, one operator acknowledges and processes it, the other sees it, the audit has it.
import { expect, test, type Page } from './fixtures';
import { shot, signIn, go } from './helpers';

async function forceDoorOpen(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const doors = await page.request.get('/event/manage/doors', { headers: { authorization: `Bearer ${token}` } });
  expect(doors.ok()).toBe(true);
  const door = (await doors.json()).items.find((d: { name: string }) => d.name === 'Server Room');
  const r = await page.request.post('/api/test/simulate', { headers: { authorization: `Bearer ${token}` }, data: { kind: 'door.forced', doorId: door.id } });
  expect(r.ok()).toBe(true);
  return door.name as string;
}

test('a forced door raises an alarm that two consoles see, one acknowledges and processes', async ({ browser }) => {
  const one = await (await browser.newContext()).newPage();
  const two = await (await browser.newContext()).newPage();
  await signIn(one, 'operator');
  await signIn(two, 'auditor'); // watches the same client's alarms
  for (const p of [one, two]) {
    await go(p, '/monitor/alarms');
    await expect(p.getByTestId('socket-status')).toHaveText(/connected/);
  }
  const before = await one.getByTestId('alarm-row').count();
  const doorName = await forceDoorOpen(one);
  const row1 = one.getByTestId('alarm-row').filter({ hasText: doorName }).first();
  const row2 = two.getByTestId('alarm-row').filter({ hasText: doorName }).first();
  await expect(row1).toBeVisible();
  await expect(row2).toBeVisible();
  await expect(one.getByTestId('alarm-row')).toHaveCount(before + 1);
  await shot(one, 'alarms');

  await expect(row2.getByTestId('alarm-acknowledge')).toBeDisabled(); // the auditor may look, not act
  await row1.getByTestId('alarm-acknowledge').click();
  await expect(row2).toContainText('Acknowledged'); // the other console sees it
  await row1.getByTestId('alarm-process').click();
  // the note shows its limit and counts toward it; beyond it the form refuses, keeping the text whole (issue 29)
  const note = one.getByTestId('alarm-note');
  await expect(one.getByTestId('alarm-note-counter')).toHaveText('0 / 1,000');
  await note.fill('x'.repeat(1001));
  await expect(note).toHaveValue('x'.repeat(1001));
  await expect(one.getByTestId('alarm-note-counter')).toHaveText('1,001 / 1,000');
  await expect(one.getByTestId('alarm-note-error')).toHaveText('must be at most 1000 characters');
  await expect(one.getByTestId('alarm-process-submit')).toBeDisabled();
  await note.fill('Door checked by patrol; latch replaced.');
  await expect(one.getByTestId('alarm-note-counter')).toHaveText('39 / 1,000');
  await one.getByTestId('alarm-process-submit').click();
  await expect(one.getByTestId('alarm-row').filter({ hasText: doorName })).toHaveCount(0);
  await expect(two.getByTestId('alarm-row').filter({ hasText: doorName })).toHaveCount(0);

  await go(one, '/report/activity');
  await expect(one.getByTestId('activity-report')).toContainText('Processed'); // plain words (issue 50), not the code `process`
});
