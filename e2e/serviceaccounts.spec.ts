// Service accounts end to end (issue 11): an administrator adds an integration's account, issues its API key (shown
// once, with a copy button), the key reads the client's identities over REST; its session shows on the
// service-account sessions screen and, once ended there, the key's next call is refused.
import { test } from './fixtures';
import { expect } from './console.helpers';
import { shot, signIn, go } from './helpers';

test('an administrator issues an API key that works until its session is ended on the sessions screen', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'harbour', { at: '/manage/service-accounts/add' });
  await page.getByLabel('Name').fill('Report bridge');
  await page.getByTestId('form-save').click();
  // the key the account was made with is shown once, by the form, before it returns to the list
  const created = page.getByTestId('shown-once');
  await expect(created).toContainText('not shown again');
  const first = await created.getByTestId('shown-apiKey').inputValue();
  expect(first).toMatch(/^gh_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
  expect((await page.request.get('/event/manage/identities?size=1', { headers: { authorization: `Bearer ${first}` } })).status()).toBe(200);
  await created.getByTestId('shown-once-done').click();
  await expect(created).toBeHidden();
  const screen = page.getByTestId('service-accounts');
  const row = screen.getByRole('row').filter({ hasText: 'Report bridge' });
  await expect(row).toBeVisible();

  // a new key replaces it (the first stops working), shown once
  await row.getByRole('button', { name: 'New key' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('It will not be shown again');
  const key = await dialog.getByTestId('api-key').inputValue();
  expect(key).toMatch(/^gh_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
  await shot(page, 'service-account-key');
  await dialog.getByRole('button', { name: 'I have copied it' }).click();
  await expect(dialog).toBeHidden();
  await expect(screen).toContainText(key.slice(0, 16)); // the list shows the new key's recognisable start only
  await shot(page, 'service-accounts');

  expect((await page.request.get('/event/manage/identities?size=1', { headers: { authorization: `Bearer ${first}` } })).status()).toBe(401);
  const call = () => page.request.get('/event/manage/identities?size=1', { headers: { authorization: `Bearer ${key}` } });
  const ok = await call();
  expect(ok.status()).toBe(200);
  expect((await ok.json()).items[0].employeeNo).toMatch(/^HH-/);

  await go(page, '/monitor/service-account-sessions');
  const session = page.getByTestId('service-sessions').getByRole('row', { name: /^Report bridge \(sa-/ });
  await expect(session).toContainText('Open');
  await session.getByRole('button', { name: 'End session' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'End session' }).click();
  await expect(session).toHaveCount(0);
  expect((await call()).status()).toBe(401);

  await page.setViewportSize({ width: 390, height: 844 });
  await go(page, '/manage/service-accounts');
  await expect(screen.getByRole('row').filter({ hasText: 'Report bridge' })).toBeVisible();
  // issue 48: the API the keys call, its reference page a click away (a page of the server, in a new tab)
  const reference = page.getByTestId('toolbar-link-docs');
  await expect(reference).toHaveAttribute('href', '/api/docs');
  await expect(reference).toHaveAttribute('target', '_blank');
  expect((await page.request.get('/api/docs/')).status()).toBe(200);
  await shot(page, 'service-accounts-390');
});
