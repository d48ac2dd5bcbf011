// Identity batch upload (issue 11): a 1,000-row spreadsheet with 3 bad rows through a batch template. The
// preview names the bad rows and imports nothing; the import creates the 997 good ones with a progress bar and
// says so; the error report downloads; the same file again creates none (it updates the 997 it matches).
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from './fixtures';
import { shot, signIn, signInTo, go } from './helpers';

const identitiesWith = async (page: Page, headers: Record<string, string>, q: string) =>
  (await (await page.request.get(`/event/manage/identities?q=${encodeURIComponent(q)}&size=1`, { headers })).json()).total as number;

test('1,000 rows with 3 bad: the preview names them, the import creates 997, the same file again creates none', async ({ page }, info) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36).toUpperCase();
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');
  const division = (await (await page.request.get('/event/manage/divisions?size=1&sort=id,asc', { headers })).json()).items[0].id;
  const tpl = await page.request.post('/event/manage/identity-batch-templates', {
    headers,
    data: {
      name: `Contractors ${stamp}`,
      divisionId: division,
      credentialType: 'card',
      columns: [
        { header: 'Staff no', target: 'employeeNo' },
        { header: 'Given name', target: 'firstName' },
        { header: 'Family name', target: 'lastName' },
        { header: 'Mail', target: 'email' },
        { header: 'Card', target: 'credentialNumber' },
      ],
    },
  });
  expect(tpl.status()).toBe(201);
  const template = await tpl.json();

  // rows 2 … 1001 of the sheet; three are bad: no family name, a malformed email, a staff number used above
  const lines = ['Staff no,Given name,Family name,Mail,Card'];
  for (let i = 1; i <= 1000; i++) {
    const emp = i === 700 ? `B${stamp}-0001` : `B${stamp}-${String(i).padStart(4, '0')}`;
    lines.push([emp, `Person${i}`, i === 100 ? '' : 'Contractor', i === 400 ? 'not-an-email' : `p${i}@example.com`, `C${stamp}${i}`].join(','));
  }
  const csv = { name: `contractors-${stamp}.csv`, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) };

  // from the identities list, as an administrator finds it
  await go(page, '/manage/identities');
  await page.getByTestId('identities-batch-upload').click();
  await expect(page).toHaveURL(/\/manage\/identities\/batch-upload$/);
  const screen = page.getByTestId('batch-upload');
  // asking without a file says so on the field
  await screen.locator('#field-templateId').selectOption(String(template.id));
  await screen.getByTestId('batch-preview').click();
  await expect(screen.getByText('Choose a CSV or XLSX file')).toBeVisible();
  await screen.locator('#field-file').setInputFiles(csv);
  await screen.getByTestId('batch-preview').click();

  await expect(screen.getByTestId('batch-creates')).toHaveText('997 new');
  await expect(screen.getByTestId('batch-updates')).toHaveText('0 updates');
  await expect(screen.getByTestId('batch-invalid')).toHaveText('3 rows with errors');
  const errors = screen.getByTestId('batch-error-row');
  await expect(errors).toHaveCount(3);
  await expect(errors.nth(0)).toContainText('101');
  await expect(errors.nth(0)).toContainText('Last name');
  await expect(errors.nth(1)).toContainText('401');
  await expect(errors.nth(1)).toContainText('Email');
  await expect(errors.nth(2)).toContainText('701');
  await expect(errors.nth(2)).toContainText('Employee no.');
  await expect(errors.nth(2)).toContainText('is repeated in this file (row 2)');
  expect(await identitiesWith(page, headers, `B${stamp}-`)).toBe(0); // the preview imported nothing
  await shot(page, 'batch-upload-preview-1440');

  // the per-row report
  const download = page.waitForEvent('download');
  await screen.getByTestId('batch-report').click();
  const file = info.outputPath('errors.csv');
  await (await download).saveAs(file);
  const saved = readFileSync(file, 'utf8');
  expect(saved.startsWith('\uFEFF')).toBe(true); // a byte-order mark: Excel reads the file as UTF-8
  const report = saved.slice(1).trim().split(/\r?\n/);
  // written by the console in the reader's language, the columns and words the page shows (issue 48)
  expect(report[0]).toBe('Row,Employee no.,Field,Problem');
  expect(report.slice(1).map((l) => l.split(',')[0])).toEqual(['101', '401', '701']);
  expect(report[1]).toContain('Last name');
  expect(report[3]).toContain('is repeated in this file (row 2)');

  await screen.getByTestId('batch-import').click();
  await expect(screen.getByTestId('batch-result')).toContainText('997 created, 0 updated, 0 failed.', { timeout: 90_000 });
  await expect(page.getByTestId('toast').filter({ hasText: 'Import finished' }).first()).toBeVisible();
  expect(await identitiesWith(page, headers, `B${stamp}-`)).toBe(997);
  await shot(page, 'batch-upload-done-1440');

  // the same file again: every good row matches an identity, none is created
  await screen.getByTestId('batch-again').click();
  await expect(screen.getByTestId('batch-summary')).toHaveCount(0);
  await screen.locator('#field-file').setInputFiles(csv);
  await screen.getByTestId('batch-preview').click();
  await expect(screen.getByTestId('batch-creates')).toHaveText('0 new');
  await expect(screen.getByTestId('batch-updates')).toHaveText('997 updates');
  await screen.getByTestId('batch-import').click();
  await expect(screen.getByTestId('batch-result')).toContainText('0 created, 997 updated, 0 failed.', { timeout: 90_000 });
  expect(await identitiesWith(page, headers, `B${stamp}-`)).toBe(997);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'batch-upload-done-390');
  // the layout follows the new width a frame or a render later (media queries, measured boxes)
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  // leave Northwind as the other specs expect it: the imported identities go again
  const ids: number[] = [];
  for (let p = 0; ids.length < 997; p++) {
    const page1 = await (await page.request.get(`/event/manage/identities?q=B${stamp}-&size=500&page=${p}`, { headers })).json();
    ids.push(...page1.items.map((x: { id: number }) => x.id));
    if (!page1.items.length) break;
  }
  for (let i = 0; i < ids.length; i += 500) {
    expect((await page.request.post('/event/manage/identities/bulk-delete', { headers, data: { ids: ids.slice(i, i + 500) } })).ok()).toBe(true);
  }
});

test('without 0.3.1.9 there is no Batch upload, and the address is denied', async ({ page }) => {
  await signIn(page, 'hr', { at: '/manage/identities' });
  await expect(page.getByTestId('identities-list')).toBeVisible();
  await expect(page.getByTestId('identities-batch-upload')).toHaveCount(0);
  await go(page, '/manage/identities/batch-upload');
  await expect(page.getByTestId('forbidden')).toBeVisible();
});
