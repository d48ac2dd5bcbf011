// Issue 29, forms that say what they check, at 1440 and 390 px: a date field shows and takes '28 Nov 2026' (the
// console's one date format, not the browser's 11/28/2026) and a visit day before today is refused on its field, on
// Register visitor as on visit requests; the phone field's example is the client's country's (Northwind: Kuala
// Lumpur, +60); the host picker tells two people of one name apart by employee no. and division, in its list and on
// its button once one is chosen; a date-time field (the event report's range, an override's window) shows and takes
// '28 Nov 2026 14:05' in the user's zone, not the browser's own picker.
import { expect, test } from './fixtures';
import { fromZonedTime } from 'date-fns-tz';
import { shot, signIn, signInTo, go } from './helpers';

const ONE_FORMAT = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}$/;

for (const width of [1440, 390]) {
  test(`register visitor at ${width} px: one date format, the day checked on its field, the client's phone example, namesakes told apart`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const headers = await signInTo(page, 'admin', 'Northwind Logistics');
    // two people of one name in two divisions, to be picked as the host
    const stamp = Date.now().toString(36).slice(-5);
    const last = `Quist${stamp}`;
    const divisions = (await (await page.request.get('/event/manage/divisions?size=10', { headers })).json()).items as { id: number; name: string }[];
    for (const [i, d] of divisions.slice(0, 2).entries()) {
      const made = await page.request.post('/event/manage/identities', {
        headers,
        data: { firstName: 'Ottilie', lastName: last, employeeNo: `Q${stamp}-${i}`.toUpperCase(), divisionId: d.id, status: 'active', credentials: [] },
      });
      expect(made.status()).toBe(201);
    }

    await go(page, '/visitor/register');
    const form = page.getByTestId('visitors-form');
    const day = form.getByLabel('Date of visit');
    await expect(day).toHaveValue(ONE_FORMAT); // today, as every screen writes dates
    await expect(day).not.toHaveAttribute('type', 'date');
    await expect(form.getByLabel('Phone')).toHaveAttribute('placeholder', /^\+60 /);

    await form.getByLabel('First name').fill('Nora');
    await form.getByLabel('Last name').fill(`Visit${stamp}`);
    await form.getByLabel('Visiting (host)').fill('Ottilie');
    await day.fill('1 Jan 2020');
    await page.getByTestId('form-save').click();
    await expect(form).toContainText('Date of visit must not be before today');
    await expect(day).toHaveAttribute('aria-invalid', 'true');

    // the host picker: the two namesakes each with what tells them apart
    await page.locator('[id="field-hostId"]').click();
    await page.locator('.bp6-popover input:focus').fill(last);
    const options = page.getByRole('option', { name: `${last}, Ottilie` });
    await expect(options).toHaveCount(2);
    await expect(options.nth(0).getByTestId('option-apart')).toContainText(`Q${stamp}-0`.toUpperCase());
    await expect(options.nth(1).getByTestId('option-apart')).toContainText(`Q${stamp}-1`.toUpperCase());
    await shot(page, `issue29-namesakes-${width}`);
    await options.nth(1).click();
    await expect(page.locator('[id="field-hostId"]')).toContainText(`${last}, Ottilie`);
    // the button says which of the two was chosen, as the list did
    await expect(page.locator('[id="field-hostId"]').getByTestId('chosen-apart')).toContainText(`Q${stamp}-1`.toUpperCase());

    // typed as the console writes dates, kept as the day, shown back the same way
    const soon = new Date(Date.now() + 3 * 86_400_000);
    const typed = `${soon.getUTCDate()} ${soon.toLocaleString('en', { month: 'short', timeZone: 'UTC' })} ${soon.getUTCFullYear()}`;
    await day.fill(typed);
    await day.blur();
    await expect(day).toHaveValue(ONE_FORMAT);
    await expect(form).not.toContainText('must not be before today');
    await shot(page, `issue29-register-${width}`);
  });
}

test("date-time fields: the event report's range and an override's window show and take '28 Nov 2026 14:05' in the user's zone", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, 'admin', { client: 'Northwind Logistics', at: '/report/event' });
  const from = page.locator('#history-from');
  const to = page.locator('#history-to');
  await expect(from).toHaveAttribute('type', 'text'); // not the browser's own date-time picker
  const zone = (await from.getAttribute('data-zone'))!; // the zone every screen shows times in (the profile's, else the client's)
  const moment = (wall: string) => fromZonedTime(wall, zone).toISOString().replace('.000Z', 'Z');
  await from.fill('28 november 2026, 2:05 pm');
  await from.blur();
  await expect(from).toHaveValue('28 Nov 2026 14:05');
  await expect(from).toHaveAttribute('data-datetime', moment('2026-11-28T14:05'));
  // no such day: said on the field once it is left, and the range is not applied
  await to.fill('31 Feb 2026 10:00');
  await to.blur();
  // in the words of every form's date-time field: '<label> is not a date and time (e.g. …)'
  await expect(page.getByText(/^To \(.+\) is not a date and time \(e\.g\. 28 Nov 2026 14:05\)$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await to.fill('2026-11-28 15:30');
  await to.blur();
  await expect(to).toHaveValue('28 Nov 2026 15:30');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('to')).toBe(moment('2026-11-28T15:30'));
  expect(new URL(page.url()).searchParams.get('from')).toBe(moment('2026-11-28T14:05'));
  await page.reload(); // the range read back from the address, written the one way
  await expect(page.locator('#history-from')).toHaveValue('28 Nov 2026 14:05');
  await shot(page, 'issue29-event-range-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('#history-to')).toHaveValue('28 Nov 2026 15:30');
  await shot(page, 'issue29-event-range-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  // a catalogue date-time field: an override starts now, written as the console writes times; a typed non-moment is named
  await go(page, '/configure/override/add');
  const start = page.getByRole('textbox', { name: 'From', exact: true });
  await expect(start).toHaveValue(/^\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}$/);
  await expect(start).toHaveAttribute('data-datetime', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/);
  const until = page.getByRole('textbox', { name: 'Until', exact: true });
  await until.fill('31 Feb 2026 10:00');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('overrides-form')).toContainText('Until is not a date and time');
  await until.fill('1 Jan 2030 09:00');
  await until.blur();
  await expect(until).toHaveValue('1 Jan 2030 09:00');
  await expect(until).toHaveAttribute('data-datetime', moment('2030-01-01T09:00'));
  await expect(page.getByTestId('overrides-form')).not.toContainText('is not a date and time');
  await shot(page, 'issue29-datetime-1440');
});

for (const width of [1440, 390]) {
  test(`exports at ${width} px: a list and the attendance screens offer CSV and XLSX, both the server's one writer`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    await signInTo(page, 'admin', 'Northwind Logistics');
    await go(page, '/manage/identities');
    const xlsx = page.waitForEvent('download');
    await page.locator('[data-testid="export-csv-xlsx"]:visible').click();
    expect((await xlsx).suggestedFilename()).toBe('identities.xlsx');

    await go(page, '/attendance/daily-attendance');
    const day = page.getByLabel('Day', { exact: true });
    await expect(day).toHaveValue(ONE_FORMAT);
    await day.fill('2 Nov 2026'); // a Monday of the demo data, typed as the console writes dates
    await day.blur();
    await expect(day).toHaveValue('2 Nov 2026');
    await expect(page.getByTestId('attendance-export')).toBeEnabled();
    const csv = page.waitForEvent('download');
    await page.getByTestId('attendance-export').click();
    const file = await csv;
    expect(file.suggestedFilename()).toBe('daily-attendance-2026-11-02.csv');
    const bytes = Buffer.from(await (await import('node:fs/promises')).readFile((await file.path())!));
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    const header = bytes.subarray(3).toString('utf8').split(/\r?\n/)[0];
    expect(header).toContain('In (Asia/Kuala_Lumpur)');
    const sheet = page.waitForEvent('download');
    await page.getByTestId('attendance-export-xlsx').click();
    expect((await sheet).suggestedFilename()).toBe('daily-attendance-2026-11-02.xlsx');
    await shot(page, `issue29-attendance-export-${width}`);
  });
}
