// Visit requests [1.4.x] and upcoming visits [1.0.0]: the front desk files a host's request, declines one with a
// reason (asked first, refused blank) and approves another — which registers the visitor for the day, linked from
// the request and listed in upcoming visits; an auditor (1.4.0 without 1.4.1) reads a request and may decide nothing.
import { expect, test } from './fixtures';
import { shot, signIn, go } from './helpers';
import { signOut } from './console.helpers';

/** A day from today in the Northwind client's zone (the server checks visit days there). */
const dayAhead = (n: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kuala_Lumpur' }).format(Date.now() + n * 86_400_000);

test('the front desk files, declines and approves visit requests; the approved visit is upcoming; an auditor only reads', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36).slice(-5);
  const [declined, approved] = [`Berg${stamp}`, `Lind${stamp}`];

  await signIn(page, 'reception');
  const sidebar = page.getByTestId('sidebar');
  await sidebar.getByRole('link', { name: 'Visit requests', exact: true }).click();
  const list = page.getByTestId('visit-requests');
  await expect(list.getByRole('row').filter({ hasText: 'Nowak, Marta' })).toBeVisible(); // seeded, waiting

  // filed as a host asked on the phone: the date is checked on its field, the typed values kept
  await list.getByTestId('add-button').click();
  const form = page.getByTestId('visitRequests-form');
  await form.getByLabel('First name').fill('Ola');
  await form.getByLabel('Last name').fill(declined);
  await form.getByLabel('Visiting (host)').fill('Ben Brown');
  await form.getByLabel('Date of visit').fill(dayAhead(-2));
  await page.getByTestId('form-save').click();
  await expect(form).toContainText('must not be before today');
  await expect(form.getByLabel('Last name')).toHaveValue(declined);
  await form.getByLabel('Date of visit').fill(dayAhead(3));
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Visit request saved' }).first()).toBeVisible();

  // its page: the request read-only, who filed it, and the decisions
  await list.getByText(`${declined}, Ola`, { exact: true }).click();
  await expect(page).toHaveURL(/\/visitor\/visit-requests\/details\/\d+$/);
  const record = page.getByTestId('record-panel');
  await expect(record.getByTestId('record-status')).toContainText('Waiting');
  await expect(record.getByTestId('record-requestedBy')).toContainText('Rita Reception');
  await expect(form.getByLabel('Last name')).toBeDisabled();
  await expect(page.getByTestId('form-save')).toHaveCount(0);
  await record.getByTestId('record-action-decline').click();
  const confirm = page.getByTestId('record-reason-confirm');
  await expect(confirm).toBeDisabled(); // a reason first
  await page.getByTestId('record-reason').fill('The site is closed that day');
  await shot(page, 'visit-request-decline');
  await confirm.click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `Declined: ${declined}, Ola’s request` })
      .first(),
  ).toBeVisible();
  await expect(record.getByTestId('record-status')).toContainText('Declined');
  await expect(record.getByTestId('record-decisionNote')).toContainText('The site is closed that day');
  await expect(record.getByTestId('record-decidedBy')).toContainText('Rita Reception');
  await expect(record.getByTestId('record-action-approve')).toHaveCount(0);

  // another, filed through the API as a host portal would, approved from its page
  const authorization = `Bearer ${await page.evaluate(() => localStorage.getItem('jwt'))}`;
  const filed = await page.request.post('/visitor/1.0/visit-requests', {
    headers: { authorization },
    data: { firstName: 'Per', lastName: approved, company: 'Lind AB', hostName: 'Ben Brown', purpose: 'meeting', visitDate: dayAhead(2) },
  });
  expect(filed.status()).toBe(201);
  const { id } = await filed.json();
  await go(page, `/visitor/visit-requests/details/${id}`);
  await record.getByTestId('record-action-approve').click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `Approved: ${approved}, Per is registered for the day` })
      .first(),
  ).toBeVisible();
  await expect(record.getByTestId('record-status')).toContainText('Approved');
  await shot(page, 'visit-request-approved');
  await record.getByTestId('record-link-visitorId').click();
  await expect(page).toHaveURL(/\/visitor\/details\/\d+$/);
  await expect(page.getByTestId('visitor-details').getByRole('heading', { name: `Per ${approved}` })).toBeVisible();
  // its printable record [1.0.10], in a tab of its own without the console around it
  const opened = page.context().waitForEvent('page');
  await page.getByTestId('print-record-link').click();
  const printable = await opened;
  await expect(printable.getByTestId('print-name')).toHaveText(`Per ${approved}`);
  await expect(printable.getByTestId('print-record')).toContainText('Ben Brown');
  await expect(printable.getByTestId('print-record')).toContainText('Lind AB');
  await expect(printable.getByTestId('app-shell')).toHaveCount(0);
  await printable.close();

  // upcoming visits: from tomorrow, soonest first — the approved visit is there, today's are not
  await sidebar.getByRole('link', { name: 'Upcoming visits', exact: true }).click();
  const upcoming = page.getByTestId('visitors-upcoming');
  await expect(upcoming.getByRole('row').filter({ hasText: `Per ${approved}` })).toBeVisible();
  await expect(upcoming).toContainText('Lind AB');
  const shown = await page.request.get(`/visitor/1.0/visitors?visitDateFrom=${dayAhead(1)}&size=1000`, { headers: { authorization } });
  expect((await shown.json()).items.every((v: { visitDate: string }) => v.visitDate >= dayAhead(1))).toBe(true);
  await signOut(page);

  // the view code alone: the request is shown, no decision is offered, and the server refuses one
  await signIn(page, 'auditor', { at: `/visitor/visit-requests/details/${id}` });
  await expect(page.getByTestId('record-panel').getByTestId('record-status')).toContainText('Approved');
  await expect(page.getByTestId('record-panel').getByTestId('record-decidedBy')).toContainText('Rita Reception');
  await go(page, '/visitor/visit-requests');
  const waiting = page.getByTestId('visit-requests').getByText('Nowak, Marta', { exact: true });
  await waiting.click();
  await expect(page.getByTestId('record-panel').getByTestId('record-status')).toContainText('Waiting');
  await expect(page.getByTestId('record-action-approve')).toHaveCount(0);
  await expect(page.getByTestId('record-action-decline')).toHaveCount(0);
});
