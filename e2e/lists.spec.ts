// The resource list: filters on the server, exports the filtered rows, bulk-deletes with a confirmation,
// and a kept-alive tab keeps what the operator typed.
import { expect, test } from './fixtures';
import { readFileSync } from 'node:fs';
import { signIn } from './helpers';

test('filters, exports the filtered rows as CSV and bulk-deletes after confirming', async ({ page }, info) => {
  await signIn(page, 'harbour', { at: '/manage/identities' });
  const list = page.getByTestId('identities-list');
  await expect(page.getByTestId('list-range')).toContainText('of 240');
  await page.getByLabel('Filter identities').fill('HH-0000');
  await expect(page.getByTestId('list-range')).toHaveText(/1–9 of 9/);

  const download = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const file = info.outputPath('identities.csv');
  await (await download).saveAs(file);
  const saved = readFileSync(file, 'utf8');
  expect(saved.startsWith('\uFEFF')).toBe(true); // a byte-order mark: Excel reads the file as UTF-8
  const lines = saved.slice(1).trim().split(/\r?\n/);
  expect(lines[0]).toContain('Employee no.');
  expect(new Set(lines[0].split(',')).size).toBe(lines[0].split(',').length); // "Division id" beside "Division"
  expect(lines[0]).toContain('Division id');
  expect(lines[0].split(',')[0]).toBe('Id'); // the server's streamed export, titled as the screens name columns
  expect(lines).toHaveLength(10); // header + the 9 filtered rows
  expect(lines.slice(1).every((l) => l.includes('HH-0000'))).toBe(true);

  const rows = list.getByTestId('row');
  const first = await rows.nth(0).getAttribute('aria-label');
  await rows.nth(0).getByRole('checkbox').check({ force: true });
  await rows.nth(1).getByRole('checkbox').check({ force: true });
  await page.getByTestId('bulk-delete').click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('list-range')).toHaveText(/of 9/);
  await page.getByTestId('bulk-delete').click();
  await page.getByRole('button', { name: 'Delete 2' }).click();
  await expect(page.getByTestId('list-range')).toHaveText(/1–7 of 7/);
  await expect(list.getByRole('row', { name: first! })).toHaveCount(0);
});

test('a kept-alive tab keeps its filter and a half-typed form', async ({ page }) => {
  await signIn(page, 'hr', { at: '/manage/identities' });
  await page.getByLabel('Filter identities').fill('Tan');
  await page.getByTestId('sidebar').getByRole('link', { name: 'Dashboard', exact: true }).click();
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await page.getByTestId('tab').filter({ hasText: 'Identities' }).click();
  await expect(page.getByLabel('Filter identities')).toHaveValue('Tan');

  await page.getByTestId('add-button').click();
  await page.getByTestId('identities-form').getByLabel('First name').fill('Half typed');
  await page.getByTestId('tab').filter({ hasText: 'Dashboard' }).click();
  await page.getByTestId('tab').filter({ hasText: 'Add identity' }).click();
  await expect(page.getByTestId('identities-form').getByLabel('First name')).toHaveValue('Half typed');
});

test('a list the server stopped counting says "of 10,000+" and still pages on to the end', async ({ page }) => {
  // the server counts at most 10,000 matching rows (issue 11): answer the first pages as a list that large would
  const stopped = (url: URL) => url.pathname === '/event/manage/identities' && url.searchParams.get('page') !== '2';
  await page.route(stopped, async (route) => {
    const res = await route.fetch();
    route.fulfill({ response: res, json: { ...(await res.json()), total: 10_000, totalIsAtLeast: true } });
  });
  await signIn(page, 'harbour', { at: '/manage/identities' });
  await expect(page.getByTestId('list-range')).toHaveText('1–100 of 10,000+');
  await expect(page.getByText('Page 1 of 100+')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Last page' })).toBeDisabled();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByTestId('list-range')).toHaveText('101–200 of 10,000+');
  // page 3 is the server's own answer: the last page, with the exact total
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByTestId('list-range')).toHaveText(/^201–(2\d\d) of \1$/);
  await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await expect(page.getByText(/^Page 3 of 3$/)).toBeVisible();
});
