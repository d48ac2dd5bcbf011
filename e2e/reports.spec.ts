// The identity reports [0.6.3.0, 0.6.4.0]: a security operator finds a member of staff in the identity report (their
// credentials and access groups) and in the identity location report (the door of their last badge-in today), exports
// the location report as CSV; lists nobody may delete from show no row marks.
import { expect, test } from './fixtures';
import { shot, signIn } from './helpers';

test('an operator reads the identity and identity location reports and exports one', async ({ page }) => {
  await signIn(page, 'operator');
  const sidebar = page.getByTestId('sidebar');
  await sidebar.getByRole('link', { name: 'Identity report', exact: true }).click();
  const report = page.getByTestId('identity-report');
  await report.getByRole('searchbox').fill('NW-00007');
  await expect(report.getByText('1-1 of 1'.replace('-', '\u2013'))).toBeVisible(); // the search found her alone
  await expect(report.getByRole('row', { name: 'Brown, Zara' })).toBeVisible();
  await expect(report.getByText('Staff', { exact: true })).toHaveCount(1); // her access group
  await expect(report.getByText('1100007', { exact: true })).toBeVisible(); // her card number
  await expect(report.getByLabel('Mark all rows on this page')).toHaveCount(0); // nothing to delete here

  await sidebar.getByRole('link', { name: 'Identity location report', exact: true }).click();
  const where = page.getByTestId('identity-locations');
  await where.getByRole('searchbox').fill('NW-00007');
  await expect(where.getByText('1-1 of 1'.replace('-', '\u2013'))).toBeVisible();
  await expect(where.getByRole('row', { name: 'Brown, Zara' })).toBeVisible();
  await expect(where.getByText('Main Entrance', { exact: true })).toBeVisible(); // the seeded badge-in this morning
  await shot(page, 'identity-location-report');
  const download = page.waitForEvent('download');
  await where.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  expect(text.split('\n')[0]).toContain('Last door');
  expect(text).toContain('NW-00007');
});
