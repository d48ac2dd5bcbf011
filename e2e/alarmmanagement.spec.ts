// Alarm management (issue 50, ISA-18.2), lean: the security operator, who holds Forward alarms [0.2.1.3] and Shelve alarm
// sources [0.2.1.2], forwards one forced door to a colleague with a note (the row says to whom) and shelves another
// door for an hour with a reason (its alarm leaves the list and the shelving is in Monitor → Alarm shelvings).
// Escalation timing, expiry, privileges and tenants are held by server/alarms/management.test.ts.
import { expect, test } from './fixtures';
import { bearer, shot, signIn } from './helpers';

test('an operator forwards one alarm with a note and shelves another source with a reason', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, 'operator');
  const headers = await bearer(page);
  const doors = (await (await page.request.get('/event/manage/doors?size=50', { headers })).json()).items as { id: number; name: string }[];
  const [a, b] = doors.slice(-2);
  const raise = async (doorId: number) =>
    (await (await page.request.post('/api/test/simulate', { headers, data: { kind: 'door.forced', doorId } })).json()) as { id: number };
  const forwarded = await raise(a.id);
  const shelved = await raise(b.id);

  await page.getByTestId('sidebar').getByRole('link', { name: 'Alarms', exact: true }).click();
  const rowOf = (id: number) => page.locator(`[data-testid="alarm-row"][data-alarm-id="${id}"]`);
  await expect(rowOf(forwarded.id)).toBeVisible();

  await rowOf(forwarded.id).getByTestId('alarm-forward').click();
  await page.getByTestId('forward-target').selectOption({ label: 'Sam Operator' });
  await page.getByTestId('forward-note').fill('Please check camera 4');
  await page.getByTestId('forward-submit').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Alarm forwarded' }).first()).toBeVisible();
  await expect(rowOf(forwarded.id).getByTestId('alarm-forwarded')).toHaveText('Forwarded to Sam Operator');

  await rowOf(shelved.id).getByTestId('alarm-shelve').click();
  await page.getByTestId('shelve-submit').click();
  await expect(page.getByText('Reason is required')).toBeVisible(); // nothing sent without a reason
  await page.getByTestId('shelve-reason').fill('Contractor replacing the lock');
  await page.getByTestId('shelve-submit').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Source shelved' }).first()).toBeVisible();
  await expect(rowOf(shelved.id)).toHaveCount(0);
  await shot(page, 'alarm-management-1440');

  await page.getByTestId('sidebar').getByRole('link', { name: 'Alarm shelvings', exact: true }).click();
  const list = page.getByRole('region', { name: 'Alarm shelvings' }).first();
  await expect(list).toContainText('Contractor replacing the lock');
  await expect(list).toContainText('Shelved');
  // ended by hand: the source raises alarms again at once (and the specs after this one on the same server find
  // the door as the demo has it: a shelving left behind hid Finance Vault's forced alarm from alarmnotifications.spec.ts)
  await page
    .getByRole('button', { name: `End shelving: ${b.name}` })
    .first()
    .click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `The shelving of ${b.name} ended` })
      .first(),
  ).toBeVisible();
  const again = await raise(b.id);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Alarms', exact: true }).click();
  await expect(rowOf(again.id)).toBeVisible();
});
