// Daily Attendance [3.2.0]: HR reaches it from the attendance screen, reads a past working day of the head-office
// team (seeded badge-ins: present, late, absent), moves day by day to a weekend (day off), filters by team; a user
// without 3.2.0 cannot open it. The attendance properties [3.5.0] round worked time.
import { expect, test } from './fixtures';
import { bearer, pick, shot, signIn, signInTo, go } from './helpers';
import { signOut } from './console.helpers';

const KL = 'Asia/Kuala_Lumpur';
const ymd = (t: number) => new Intl.DateTimeFormat('en-CA', { timeZone: KL }).format(t);
const weekday = (t: number) => new Intl.DateTimeFormat('en-US', { timeZone: KL, weekday: 'short' }).format(t);

test('HR reads a working day and a weekend of the head-office team, rounds worked time in the properties; the auditor may not', async ({ page }) => {
  test.setTimeout(90_000);
  // the latest Monday to Thursday before today in the client's zone (its next day is a working day too)
  let t = Date.now() - 86_400_000;
  while (!['Mon', 'Tue', 'Wed', 'Thu'].includes(weekday(t))) t -= 86_400_000;
  let sat = Date.now() - 86_400_000;
  while (weekday(sat) !== 'Sat') sat -= 86_400_000;

  await signIn(page, 'hr', { at: '/attendance' });
  await page.getByTestId('attendance-hub').getByText('Daily Attendance', { exact: true }).click();
  const screen = page.getByTestId('daily-attendance');
  await expect(screen.getByLabel('Day', { exact: true })).toHaveAttribute('data-date', ymd(Date.now())); // today, in the user's zone (shown as '28 Nov 2026')

  await screen.getByLabel('Day', { exact: true }).fill(ymd(t));
  const table = screen.getByTestId('attendance-table');
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(8); // the seeded head-office team
  // a past working day: everyone has a status of that day; those who came have an in and an out and hours worked
  const statuses = await table.getByTestId('attendance-status').allTextContents();
  expect(statuses.every((x) => ['Present', 'Late', 'Absent', 'On leave'].includes(x))).toBe(true);
  expect(statuses.filter((x) => x === 'Present' || x === 'Late').length).toBeGreaterThan(4);
  await expect(
    rows
      .getByTestId('attendance-worked')
      .filter({ hasText: /^\d+:\d\d$/ })
      .first(),
  ).toBeVisible(); // worked
  // Office hours' 60-minute unpaid break is taken off a day that spans 12:30-13:30 (every seeded in and out does):
  // worked is the out less the in less 1:00, and says so
  const came = rows.filter({ has: page.getByTestId('attendance-break') }).first();
  await expect(came.getByTestId('attendance-break')).toHaveText('1:00 break taken off');
  const [inAt, outAt, workedText] = [
    await came.locator('td:nth-child(3)').textContent(),
    await came.locator('td:nth-child(4)').textContent(),
    await came.getByTestId('attendance-worked').textContent(),
  ];
  const mins = (hm: string) => Number(hm.split(':')[0]) * 60 + Number(hm.split(':')[1]);
  expect(mins(workedText!)).toBe(mins(outAt!) - mins(inAt!) - 60);
  await expect(came.getByTestId('attendance-overtime')).toHaveText(''); // a working day: no overtime
  await expect(screen.getByTestId('attendance-counts')).toContainText(/Present: \d/);
  await shot(page, 'daily-attendance');

  // the next day, by the arrow, is a working day too; a Saturday is a day off for all of them
  await screen.getByTestId('day-after').click();
  await expect(screen.getByLabel('Day', { exact: true })).toHaveAttribute('data-date', ymd(t + 86_400_000));
  await expect(rows).toHaveCount(8);
  await screen.getByLabel('Day', { exact: true }).fill(ymd(sat));
  await expect(table.getByTestId('attendance-status').first()).toHaveText('Day off');
  expect(new Set(await table.getByTestId('attendance-status').allTextContents())).toEqual(new Set(['Day off']));
  await screen.getByLabel('Team').selectOption({ label: 'Head office' });
  await expect(rows).toHaveCount(8);

  // attendance properties [3.5.0]: worked time rounded down to quarters shows so on the working day; the form stays
  await go(page, '/attendance/properties');
  const props = page.getByTestId('attendanceProperties-form');
  await props.getByLabel('Round worked time down to (minutes)').fill('15');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Attendance properties saved' }).first()).toBeVisible();
  await page.reload();
  await expect(props.getByLabel('Round worked time down to (minutes)')).toHaveValue('15');
  await go(page, '/attendance/daily-attendance');
  await screen.getByLabel('Day', { exact: true }).fill(ymd(t));
  // the past day's reading (most came and went), every worked time a quarter
  await expect
    .poll(async () => {
      const worked = (await rows.getByTestId('attendance-worked').allTextContents()).filter(Boolean);
      return worked.length > 4 && worked.every((w) => /:(00|15|30|45)$/.test(w));
    })
    .toBe(true);
  // summaries [3.6.0]: the last two weeks of the team, days counted per member
  await go(page, '/attendance/summaries');
  const summaries = page.getByTestId('attendance-summaries');
  await summaries.getByLabel('First day').fill(ymd(Date.now() - 14 * 86_400_000));
  await summaries.getByLabel('Last day').fill(ymd(Date.now()));
  await expect(summaries.getByTestId('summary-days')).toHaveText('15 days counted, up to today; days still ahead are not.');
  const totals = summaries.getByTestId('summary-table').locator('tbody tr');
  await expect(totals).toHaveCount(8);
  const scheduled = (await totals.locator('td:nth-child(3)').allTextContents()).map(Number);
  expect(scheduled.every((n) => n >= 9)).toBe(true); // ten weekdays in two weeks, less any leave
  await shot(page, 'attendance-summaries');
  await summaries.getByLabel('Last day').fill(ymd(Date.now() - 20 * 86_400_000));
  await expect(summaries.getByTestId('summary-problem')).toHaveText('The last day is before the first.');

  // build the timesheet of that working day [3.3], then amend one member's day [3.4] with the reason
  await go(page, '/attendance/build/timesheet');
  const builder = page.getByTestId('build-timesheet');
  await builder.getByLabel('First day').fill(ymd(t));
  await builder.getByLabel('Last day').fill(ymd(t));
  await builder.getByTestId('build-run').click();
  await expect(builder.getByTestId('build-result')).toContainText(/1 days built: \d timesheet days written/);
  await builder.getByRole('link', { name: 'Open the timesheet' }).click();
  await expect(page.getByTestId('timesheet').getByText('Brown, Zara', { exact: true }).first()).toBeVisible();
  // Zara Brown's day t, opened from its address (the list holds two weeks of her days)
  const authorization = `Bearer ${await page.evaluate(() => localStorage.getItem('jwt'))}`;
  const found = async () =>
    (await (await page.request.get(`/event/attendance/timesheet?day=${ymd(t)}&q=Brown`, { headers: { authorization } })).json()).items[0];
  await go(page, `/attendance/amend-timesheet/edit/${(await found()).id}`);
  const amend = page.getByTestId('timesheet-form');
  await expect(page.getByTestId('record-panel')).toContainText('Brown, Zara');
  await amend.getByLabel('In', { exact: true }).fill(`${ymd(t)}T08:30`);
  await amend.getByLabel('Out', { exact: true }).fill(`${ymd(t)}T08:00`);
  await page.getByTestId('form-save').click();
  await expect(amend).toContainText('must be after the in time');
  await amend.getByLabel('Out', { exact: true }).fill(`${ymd(t)}T17:30`);
  await page.getByTestId('form-save').click();
  await expect(amend).toContainText('say why the day is changed');
  await amend.getByLabel('Why it was changed').fill('Badge left at home; in with the morning shift');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Timesheet day saved' }).first()).toBeVisible();
  await expect(page.getByTestId('timesheet')).toBeVisible();
  expect(await found()).toMatchObject({ status: 'present', workedMinutes: 480, overtimeMinutes: 0, amended: true, amendedBy: 'Hana HR' }); // 08:30 to 17:30 less the 60-minute break

  await go(page, '/attendance/properties');
  await props.getByLabel('Round worked time down to (minutes)').fill('1');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Attendance properties saved' }).first()).toBeVisible();
  await signOut(page);

  await signIn(page, 'auditor', { at: '/attendance/daily-attendance' });
  await expect(page.getByTestId('daily-attendance')).toHaveCount(0);
  await expect(page).toHaveURL(/403/);
});

test('leave requested by the administrator waits for the team’s approver, who approves it with a note the person sees', async ({ page }) => {
  // issue 50: Hana HR approves the head-office team's leave (the demo data); Alex Admin files it
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');
  const team = (await (await page.request.get('/event/attendance/teams?size=10', { headers })).json()).items.find(
    (x: { name: string }) => x.name === 'Head office',
  );
  const category = (await (await page.request.get('/event/attendance/leave-categories?size=10', { headers })).json()).items.find(
    (x: { code: string }) => x.code === 'SL',
  );
  const made = await page.request.post('/event/attendance/leave', {
    headers,
    data: {
      identityId: team.members[1],
      categoryId: category.id,
      fromDate: ymd(Date.now() + 7 * 86_400_000),
      toDate: ymd(Date.now() + 8 * 86_400_000),
      note: 'Dentist',
    },
  });
  expect(made.status()).toBe(201);
  const leave = await made.json();
  expect(leave.status).toBe('requested');
  await signOut(page);

  await signIn(page, 'hr', { at: `/attendance/leave/view/${leave.id}` });
  const record = page.getByTestId('record-panel');
  await expect(record.getByTestId('record-status')).toContainText('Waiting for approval');
  await expect(record.getByTestId('record-requestedBy')).toContainText('Alex Admin');
  await record.getByTestId('record-action-approve').click();
  await page.getByTestId('record-reason').fill('Get well');
  await page.getByTestId('record-reason-confirm').click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `Approved: ${leave.identityName}’s leave counts in the timesheet` })
      .first(),
  ).toBeVisible();
  await expect(record.getByTestId('record-status')).toContainText('Approved');
  await expect(record.getByTestId('record-decisionNote')).toContainText('Get well');
  await expect(record.getByTestId('record-action-reject')).toHaveCount(0);
  await shot(page, 'leave-approved-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'leave-approved-390');
});

test('a member of staff requests leave and sees it waiting; the approver finds it under Waiting for me and approves it with a note; the staff member sees it approved with the note', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // issue 50: the demo user `staff` holds only Request own leave (3.8.3) and is a member of the head-office team
  await signIn(page, 'staff', { at: '/attendance' });
  const headers = await bearer(page);
  const me = (await (await page.request.get('/event/manage/identities/options', { headers })).json()).items as { id: number; label: string }[];
  expect(me).toHaveLength(1); // the picker offers nobody else
  const category = (
    (await (await page.request.get('/event/attendance/leave-categories/options', { headers })).json()).items as { id: number; label: string }[]
  )[0];
  await page.getByTestId('attendance-hub').getByText('Leave', { exact: true }).click();
  const list = page.getByTestId('leave-list');
  await expect(list.getByRole('tab')).toHaveText(['My leave']);
  await list
    .getByRole('link', { name: 'Add leave' })
    .or(list.getByRole('button', { name: 'Add leave' }))
    .first()
    .click();
  // Who starts as the member of staff they are (they may file for nobody else)
  await expect(page.locator('[id="field-identityId"]')).toContainText(me[0].label);
  await pick(page, 'categoryId', category.label);
  const note = `Sister’s wedding ${Date.now() % 100000}`;
  await page.locator('[id="field-fromDate"]').fill(ymd(Date.now() + 21 * 86_400_000));
  await page.locator('[id="field-toDate"]').fill(ymd(Date.now() + 22 * 86_400_000));
  await page.locator('[id="field-note"]').fill(note);
  await page.getByTestId('form-save').click();
  await expect(list.getByText(note)).toBeVisible();
  const mine = (await (await page.request.get('/event/attendance/leave?size=100', { headers })).json()).items as {
    id: number;
    note: string;
    identityId: number;
  }[];
  expect(mine.every((x) => x.identityId === me[0].id)).toBe(true); // nobody else's leave
  const leave = mine.find((x) => x.note === note)!;
  await expect(list.getByText('Waiting for approval').first()).toBeVisible();
  await shot(page, 'leave-staff-waiting-1440');
  await signOut(page);

  // the approver sees Waiting for me first, the request in it
  await signIn(page, 'hr', { at: '/attendance/leave' });
  const approver = page.getByTestId('leave-list');
  await expect(approver.getByRole('tab', { name: 'Waiting for me' })).toHaveAttribute('aria-selected', 'true');
  await expect(approver.getByText(note)).toBeVisible();
  await shot(page, 'leave-waiting-for-me-1440');
  await go(page, `/attendance/leave/view/${leave.id}`);
  const record = page.getByTestId('record-panel');
  await record.getByTestId('record-action-approve').click();
  await page.getByTestId('record-reason').fill('Enjoy the wedding');
  await page.getByTestId('record-reason-confirm').click();
  await expect(record.getByTestId('record-status')).toContainText('Approved');
  await go(page, '/attendance/leave?scope=waitingForMe');
  await expect(approver.getByRole('tab', { name: 'Waiting for me' })).toHaveAttribute('aria-selected', 'true');
  await expect(approver.getByText(note)).toHaveCount(0); // decided: no longer waiting
  await signOut(page);

  // the member of staff sees it approved, with the approver's note
  await signIn(page, 'staff', { at: `/attendance/leave/view/${leave.id}` });
  const own = page.getByTestId('record-panel');
  await expect(own.getByTestId('record-status')).toContainText('Approved');
  await expect(own.getByTestId('record-decisionNote')).toContainText('Enjoy the wedding');
  await expect(own.getByTestId('record-action-approve')).toHaveCount(0);
  await expect(own.getByTestId('record-action-withdraw')).toHaveCount(0); // decided: no longer theirs to take back
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'leave-staff-approved-390');

  // a request nobody has decided yet, taken back with a reason the approvers see
  const second = await page.request.post('/event/attendance/leave', {
    headers: await bearer(page), // (the first sign-in's session ended with its sign-out)
    data: { identityId: me[0].id, categoryId: category.id, fromDate: ymd(Date.now() + 40 * 86_400_000), toDate: ymd(Date.now() + 40 * 86_400_000) },
  });
  expect(second.status()).toBe(201);
  await go(page, `/attendance/leave/view/${(await second.json()).id}`);
  await own.getByTestId('record-action-withdraw').click();
  await page.getByTestId('record-reason').fill('The wedding moved to spring');
  await page.getByTestId('record-reason-confirm').click();
  await expect(own.getByTestId('record-status')).toContainText('Withdrawn');
  await expect(page.getByText(/Withdrawn: .*’s leave request/)).toBeVisible();
  await expect(own.getByTestId('record-action-withdraw')).toHaveCount(0);
  await shot(page, 'leave-staff-withdrawn-390');
});
