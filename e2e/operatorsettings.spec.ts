// Operator settings (issue 11): an administrator sets the client's password policy in the console; a value outside
// the allowed range is refused on its field with the typed values kept, a good one is saved and is what the server
// enforces from then on.
import { expect, test } from './fixtures';
import { signIn } from './helpers';

test('an administrator sets the password policy; a value out of range is named on its field', async ({ page }) => {
  await signIn(page, 'admin', { client: 'Northwind Logistics' });
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const auth = { authorization: `Bearer ${token}` };
  const before = await (await page.request.get('/event/manage/operator-settings', { headers: auth })).json();
  try {
    await page.getByTestId('sidebar').getByRole('link', { name: 'Operator settings', exact: true }).click();
    const form = page.getByTestId('operator-settings');
    await expect(form.getByLabel('Minimum password length')).toHaveValue(String(before.passwordMinLength));
    await form.getByLabel('Minimum password length').fill('3');
    await form.getByLabel('Idle timeout (minutes)').fill('45');
    await form.getByTestId('form-save').click();
    await expect(form).toContainText('Minimum password length must be at least 6');
    await expect(form.getByLabel('Idle timeout (minutes)')).toHaveValue('45');
    await form.getByLabel('Minimum password length').fill('12');
    await form.getByTestId('form-save').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Operator settings saved' }).first()).toBeVisible();
    const after = await (await page.request.get('/event/manage/operator-settings', { headers: auth })).json();
    expect(after).toEqual({ ...before, passwordMinLength: 12, idleTimeoutMinutes: 45 });
    // what was saved is what the form starts from now (the form actor keeps the values it sent): Reset returns to 12
    await form.getByLabel('Minimum password length').fill('20');
    await form.getByRole('button', { name: 'Reset' }).click();
    await expect(form.getByLabel('Minimum password length')).toHaveValue('12');
    await expect(form.getByLabel('Idle timeout (minutes)')).toHaveValue('45');
  } finally {
    await page.request.put('/event/manage/operator-settings', { headers: auth, data: before });
  }
});
