// The calendar (issue 12): the client's special dates on a month, a yearly one in every year; an ordinary day offers
// to add one there (the form opens with that date), and the new holiday shows on its day and in the month's list.
import { expect, test } from './fixtures';
import { shot, signIn } from './helpers';

test('the calendar shows special dates by month and adds one on a chosen day', async ({ page }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  await signIn(page, 'admin', { client: 'Northwind Logistics' });
  await page.getByTestId('sidebar').getByRole('link', { name: 'Calendar', exact: true }).click();
  const cal = page.getByTestId('calendar');
  await expect(cal.getByTestId('calendar-day').first()).toBeVisible();
  // New Year's Day is yearly: it is on 1 January of whichever year is shown
  for (let i = 0; i < 12 && !(await cal.getByTestId('calendar-month').innerText()).startsWith('January'); i++) await cal.getByTestId('calendar-next').click();
  const year = /\d{4}/.exec(await cal.getByTestId('calendar-month').innerText())![0];
  await expect(cal.locator(`[data-testid="calendar-day"][data-date="${year}-01-01"]`)).toContainText("New Year's Day");
  await expect(cal.getByTestId('calendar-list')).toContainText("New Year's Day");

  // a holiday on the 15th, added from the day itself
  const day = `${year}-01-15`;
  const cell = cal.locator(`[data-testid="calendar-day"][data-date="${day}"]`);
  await cell.hover();
  await cell.getByTestId('calendar-add').click();
  await expect(page).toHaveURL(new RegExp(`/configure/special-date/add\\?date=${day}$`));
  // the one date field (issue 29) shows the day as every screen writes dates, and holds it as the API takes it
  await expect(page.locator('#field-date')).toHaveAttribute('data-date', day);
  await expect(page.locator('#field-date')).toHaveValue(`15 Jan ${year}`);
  await page.locator('#field-name').fill(`Founders' day ${stamp}`);
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Special date saved' }).first()).toBeVisible();
  await page.goto('/configure/calendar');
  for (let i = 0; i < 12 && !(await cal.getByTestId('calendar-month').innerText()).startsWith('January'); i++) await cal.getByTestId('calendar-next').click();
  await expect(cal.locator(`[data-testid="calendar-day"][data-date="${day}"]`)).toContainText(`Founders' day ${stamp}`);
  await shot(page, 'calendar-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(cal.getByTestId('calendar-list')).toContainText(`Founders' day ${stamp}`);
  await shot(page, 'calendar-390');
});

test("weeks start where the reader's region starts them: Sunday for en-US, Monday for en-GB", async ({ browser }) => {
  for (const [locale, first, last] of [
    ['en-US', 'Sun', 'Sat'],
    ['en-GB', 'Mon', 'Sun'],
  ] as const) {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    await signIn(page, 'admin', { client: 'Northwind Logistics', at: '/configure/calendar' });
    const heads = page.getByTestId('calendar').getByRole('columnheader');
    await expect(heads.first()).toHaveText(first);
    await expect(heads.nth(6)).toHaveText(last);
    // the first cell is that weekday too (a day of the month shown, or of the one before)
    const date = await page.getByTestId('calendar-day').first().getAttribute('data-date');
    expect(new Date(`${date}T12:00:00Z`).getUTCDay()).toBe(first === 'Sun' ? 0 : 1);
    await context.close();
  }
});
