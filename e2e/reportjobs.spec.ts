// Scheduled report jobs [0.6.5.x, 3.9.x]: HR (3.9.x only) is offered the attendance reports alone, schedules a weekly
// summary (a wrong hour and a wrong address refused on their fields, the name kept), runs it now from the job's page
// and downloads the CSV; the job's page says e-mail is not configured (no SMTP_URL here) and lists the report with its
// period, rows, format and where it went; the auditor (view codes) opens it read-only to download.
// (Families, tenants and the runner: reportJobs.test.ts.)
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { shot, signIn } from './helpers';
import { signOut } from './console.helpers';

test('HR schedules a weekly attendance summary, runs it now and downloads the report', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const name = `Team hours ${stamp}`;
  await signIn(page, 'hr', { at: '/report/scheduled-jobs' });
  const list = page.getByTestId('report-jobs');
  await list.getByTestId('add-button').click();
  const form = page.getByTestId('reportJobs-form');
  await expect(form.locator('#field-report option')).toHaveText([
    'Daily attendance: each member\u2019s days in the period',
    'Attendance summaries: each member\u2019s totals for the period',
  ]);
  await form.getByLabel('Name').fill(name);
  await form.locator('#field-report').selectOption('attendance-summary');
  // the day fields show for the frequency they belong to
  await expect(form.locator('#field-weekday')).toHaveCount(0);
  await form.getByLabel('Frequency').selectOption('monthly');
  await expect(form.locator('#field-monthDay')).toBeVisible();
  await form.getByLabel('Frequency').selectOption('weekly');
  await expect(form.locator('#field-weekday')).toBeVisible();
  await expect(form.locator('#field-monthDay')).toHaveCount(0);
  await form.locator('#field-weekday').selectOption('5');
  // where it goes: the format, the recipients (checked as e-mail addresses) and a web hook
  await expect(form.locator('#field-format option')).toHaveText(['CSV (comma-separated text)', 'XLSX (Excel workbook)']);
  // (shaped as a list of addresses, so the form lets it through; the server checks each address)
  await form.getByLabel('E-mail to').fill('hr@example.com, not-an-address@nowhere');
  await form.getByLabel('At (hour)').fill('25');
  await page.getByTestId('form-save').click();
  await expect(form.getByText(/23/).first()).toBeVisible();
  await expect(form.getByLabel('Name')).toHaveValue(name);
  await form.getByLabel('At (hour)').fill('7');
  await page.getByTestId('form-save').click();
  // the server names the address it refused, on its field
  await expect(form.getByText(/not-an-address@nowhere: has the wrong format/).first()).toBeVisible();
  await form.getByLabel('E-mail to').fill('hr@example.com');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Scheduled report job saved' }).first()).toBeVisible();

  // its page: when it runs next, Run now, and the report it made, for download
  await list.getByText(name, { exact: true }).click();
  await expect(page).toHaveURL(/\/report\/scheduled-jobs\/edit\/\d+$/);
  const record = page.getByTestId('record-panel');
  await expect(record.getByTestId('record-nextRunAt')).toContainText(/07:00/);
  const runs = page.getByTestId('report-job-runs');
  await expect(runs).toContainText('No reports yet');
  // this server has no SMTP_URL: the job's page says nobody is mailed (the server's delivery answer says so)
  await expect(runs.getByTestId('report-job-mail-off')).toContainText('E-mail is not configured on this server');
  await record.getByTestId('record-action-run').click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `${name}: report made.` })
      .first(),
  ).toBeVisible();
  await expect(record.getByTestId('record-lastStatus')).toContainText('rows');
  await expect(runs.getByTestId('report-job-run')).toHaveCount(1);
  await expect(runs.getByTestId('report-job-run')).toContainText('CSV');
  await expect(runs.getByTestId('report-job-run')).toContainText('Kept here');
  await expect(runs.getByTestId('report-job-retry')).toHaveCount(0); // nothing failed
  await shot(page, 'report-job-record');
  const [download] = await Promise.all([page.waitForEvent('download'), runs.getByTestId('report-job-download').click()]);
  expect(download.suggestedFilename()).toMatch(/^Team-hours-.*\.csv$/);
  const saved = readFileSync((await download.path())!, 'utf8');
  expect(saved.startsWith('\uFEFF')).toBe(true); // a byte-order mark: Excel reads the file as UTF-8
  const csv = saved.slice(1);
  // the Attendance summaries screen's own file (contract/attendanceFiles.ts)
  expect(csv.split('\r\n')[0]).toBe(
    'Name,Employee no.,Team,Scheduled days,Present days,Late days,Absent days,Leave days,Worked minutes,Late minutes,Overtime minutes',
  );
  expect(csv.split('\r\n').filter(Boolean).length).toBeGreaterThan(1); // the seeded head-office team badges in every working day

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'report-job-record-390');
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  // the auditor (3.9.0, a view code) opens the job read-only: the reports to download, no Run now, no Save
  const jobPage = page.url();
  await page.setViewportSize({ width: 1280, height: 720 });
  await signOut(page);
  await signIn(page, 'auditor', { at: '/report/scheduled-jobs' });
  await page.getByTestId('report-jobs').getByText(name, { exact: true }).click();
  await expect(page).toHaveURL(jobPage);
  await expect(page.getByTestId('form-read-only')).toBeVisible();
  await expect(page.getByTestId('form-save')).toHaveCount(0);
  await expect(page.getByTestId('record-panel').getByTestId('record-action-run')).toHaveCount(0);
  await expect(page.getByTestId('report-job-runs').getByTestId('report-job-download')).toHaveCount(1);
});
