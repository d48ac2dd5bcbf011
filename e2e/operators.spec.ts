// Accounts that belong to more than one client (issue 27), as Harbour Health's administrator sees them: the platform
// operator `admin` also works for Northwind, so the operators screen tags the account as shared and offers no
// password reset, disable or enable for it (the reason instead); an account of Harbour alone keeps those buttons.
import { expect, test } from './fixtures';
import { signIn } from './helpers';

test('harbour sees admin as shared, with no Reset password, and its own operator with one', async ({ page }) => {
  await signIn(page, 'harbour', { at: '/manage/operators' });
  const list = page.getByTestId('operators');
  const admin = list.getByRole('row', { name: 'Alex Admin' });
  await expect(admin.getByTestId('operator-shared')).toBeVisible();
  await expect(admin.getByTestId('operator-locked')).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Reset password' })).toHaveCount(0);
  await expect(admin.getByRole('button', { name: 'Disable' })).toHaveCount(0);
  await expect(admin.getByTestId('operator-remove')).toBeVisible();
  const own = list.getByRole('row', { name: 'Harper Harbour' });
  await expect(own.getByTestId('operator-shared')).toHaveCount(0);
  await expect(own.getByRole('button', { name: 'Reset password' })).toBeVisible();
});
