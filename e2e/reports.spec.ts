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
  // the door of her last badge-in is whatever the server answered: the seed badges her in at the main entrance, but
  // a spec before this one that simulates a granted swipe with any card may have used hers at another door since
  // (server/resources/reports.test.ts checks which door the server picks)
  const answered = page.waitForResponse((r) => r.url().includes('/report/1.0/identity-locations') && r.url().includes('NW-00007') && r.ok());
  await where.getByRole('searchbox').fill('NW-00007');
  const rows = (await (await answered).json()).items as { lastDoor: string | null }[];
  expect(rows).toHaveLength(1);
  expect(rows[0].lastDoor).toEqual(expect.any(String)); // the seed gave her badge-ins, so she has a last door
  await expect(where.getByText('1-1 of 1'.replace('-', '\u2013'))).toBeVisible();
  await expect(where.getByRole('row', { name: 'Brown, Zara' })).toBeVisible();
  await expect(where.getByText(rows[0].lastDoor!, { exact: true })).toBeVisible(); // hers: the list holds her row alone
  await shot(page, 'identity-location-report');
  const download = page.waitForEvent('download');
  await where.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  expect(text.split('\n')[0]).toContain('Last door');
  expect(text).toContain('NW-00007');
});
