// User-defined fields (issue 11): an administrator adds two fields to Northwind's identities in the generated screen;
// the identity form shows them in a section of their own, refuses a wrong value on its field (keeping what was
// typed), saves a right one, and the identities list shows it in a column of its own.
import { expect, test } from './fixtures';
import { shot, signIn, go } from './helpers';

test('a client adds fields to its identities; the form checks and saves them, the list shows them', async ({ page }) => {
  test.setTimeout(150_000);
  const stamp = Date.now().toString(36);
  await signIn(page, 'admin', { client: 'Northwind Logistics' });

  // two fields: a number and a choice (neither required: the demo data and other specs keep working)
  for (const f of [
    { label: `Locker ${stamp}`, key: `locker${stamp}`, kind: 'number' },
    { label: `Shirt ${stamp}`, key: `shirt${stamp}`, kind: 'choice', options: 'S\nM\nL' },
  ]) {
    await go(page, '/manage/user-defined-fields');
    await page.getByTestId('user-fields').getByTestId('add-button').click();
    await page.getByLabel('Label').fill(f.label);
    await page.getByLabel('Key').fill(f.key);
    await page.getByLabel('Type').selectOption(f.kind);
    if (f.options) await page.getByLabel('Choices (one per line)').fill(f.options);
    await page.getByTestId('form-save').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'User-defined field saved' }).first()).toBeVisible();
    await expect(page.getByTestId('user-fields').getByRole('row').filter({ hasText: f.label })).toBeVisible();
  }

  // the identity form: the fields in "More fields"; a wrong number is refused on its field and the typed values stay
  await go(page, '/manage/identities/add');
  const more = page.getByTestId('udf-section');
  await expect(more).toContainText(`Locker ${stamp}`);
  await page.getByLabel('First name').fill('Uma');
  await page.getByLabel('Last name').fill(`Fields${stamp}`);
  await page.getByLabel('Employee no.').fill(`UF-${stamp}`.toUpperCase());
  const division = page.getByLabel('Division');
  await division.selectOption({ index: 1 });
  await more.getByLabel(`Locker ${stamp}`).fill('twelve');
  await more.getByLabel(`Shirt ${stamp}`).selectOption('M');
  await page.getByTestId('form-save').click();
  await expect(more).toContainText('must be a number');
  await expect(page.getByLabel('First name')).toHaveValue('Uma');
  await more.getByLabel(`Locker ${stamp}`).fill('12');
  await shot(page, 'udf-identity-form-1440');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Identity saved' }).first()).toBeVisible();

  // the list: a column per field, with the saved values
  await go(page, '/manage/identities');
  await expect(page.getByTestId('col-udf.locker' + stamp).first()).toBeVisible();
  await page.getByTestId('identities').getByRole('searchbox').fill(`Fields${stamp}`);
  await page.getByTestId('identities').getByRole('searchbox').press('Enter');
  await expect(page.getByTestId('identities').getByTestId('row')).toHaveCount(1);
  await expect(page.getByTestId('identities').locator('.bp6-table-cell').filter({ hasText: /^12$/ })).toHaveCount(1);

  // and the server holds them
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const found = (await (await page.request.get(`/event/manage/identities?q=Fields${stamp}`, { headers: { authorization: `Bearer ${token}` } })).json()).items;
  expect(found[0].udf).toEqual({ [`locker${stamp}`]: 12, [`shirt${stamp}`]: 'M' });
});
