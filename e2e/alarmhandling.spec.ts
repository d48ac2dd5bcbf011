// Issue 31, alarm handling measured: the security operator (who holds the alarm handling report, 0.6.7.0) raises a
// forced door, opens the report, sees the period's figures as the server counts them, clicks the count of alarms
// raised and lands on the event report showing exactly the alarms behind it; at 390 px the report does not scroll
// sideways (its cards wrap, its table scrolls in its own box).
import { expect, test } from './fixtures';
import { bearer, shot, signIn, go } from './helpers';

test('the operator opens the alarm handling report and the alarms behind a figure', async ({ page }) => {
  await signIn(page, 'operator');
  const headers = await bearer(page);
  const doors = (await (await page.request.get('/event/manage/doors', { headers })).json()) as { items?: { id: number }[] } | { id: number }[];
  const list = Array.isArray(doors) ? doors : (doors.items ?? []);
  const raised = await page.request.post('/api/test/simulate', { headers, data: { kind: 'door.forced', doorId: list[0].id } });
  expect(raised.status()).toBe(200);
  const alarmId = (await raised.json()).id as number;

  await go(page, '/report/alarm-handling');
  await expect(page.getByTestId('alarm-handling-period')).toBeVisible();
  // the figure on screen is the server's count of the period the screen asked for
  const from = await page.getByLabel('First day').getAttribute('data-date'); // the day the field holds (it shows '28 Nov 2026')
  const to = await page.getByLabel('Last day').getAttribute('data-date');
  const report = await (await page.request.get(`/event/report/alarm-handling?from=${from}&to=${to}`, { headers })).json();
  expect(report.total.raised).toBeGreaterThanOrEqual(1);
  const figure = page.getByTestId('alarm-handling-raised');
  await expect(figure).toHaveText(String(report.total.raised));
  await expect(page.getByTestId('alarm-handling-chart')).toBeVisible();
  await expect(page.getByTestId('alarm-handling-table')).toBeVisible();
  // issue 50: the ISA-18.2 figures, the server's, under the table
  await expect(page.getByTestId('alarm-management-per-hour')).toContainText(
    new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 }).format(report.management.perOperatorHour),
  );
  await expect(page.getByTestId('alarm-management-top').locator('tbody tr')).toHaveCount(report.management.topSources.length);
  await shot(page, 'alarm-handling');

  await figure.click();
  await expect(page).toHaveURL(/\/report\/event\?.*alarmFigure=raised/);
  await expect(page.getByTestId('alarm-figure-filter')).toBeVisible();
  const history = page.getByTestId('event-report');
  await expect(history.getByText('Door forced open at').first()).toBeVisible();
  await expect(history.getByTestId('list-range')).toHaveText(new RegExp(`of ${report.total.raised}$`));
  // the list is of the alarms of the figure, and only those: the one just raised among them
  const url = new URL(page.url());
  const behind = await (await page.request.get(`/event/manage/events?${url.searchParams}&size=100`, { headers })).json();
  expect(behind.total).toBe(report.total.raised);
  expect(behind.items.map((e: { id: number }) => e.id)).toContain(alarmId);

  await page.setViewportSize({ width: 390, height: 844 });
  await go(page, '/report/alarm-handling');
  await expect(page.getByTestId('alarm-handling-raised')).toHaveText(String(report.total.raised));
  await expect(page.getByTestId('alarm-handling-table')).toBeAttached();
  await shot(page, 'alarm-handling-390');
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});
