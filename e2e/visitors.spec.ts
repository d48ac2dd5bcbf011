// Visitor registration at the front desk with the local devices (issue 5): read the visitor's MyKad into the
// form, save, and print the badge through the desktop companion; the server records the print.
import { expect, test } from './fixtures';
import { startCardConnectorSimulator } from '../server/simulator/cardConnector';
import { startCompanionSimulator } from '../server/simulator/companion';
import { shot, signIn, go } from './helpers';

test('registers a visitor from their identity card and prints the badge through the companion', async ({ page }) => {
  const reader = await startCardConnectorSimulator();
  const companion = await startCompanionSimulator();
  try {
    await signIn(page, 'reception');
    await expect(page.getByTestId('companion-indicator')).toHaveAttribute('data-status', 'connected');
    await go(page, '/visitor/register');
    const form = page.getByTestId('visitors-form');
    await expect(form.getByLabel('Date of visit')).not.toHaveValue('');
    await page.getByTestId('connect-card-reader').click();
    await expect(page.getByTestId('card-connector-status')).toHaveAttribute('data-status', 'connected');
    reader.insertCard();
    await page.getByTestId('read-card').click();
    await expect(form.getByLabel('First name')).toHaveValue('Nurul Aini');
    await expect(form.getByLabel('Last name')).toHaveValue('binti Ismail');
    await expect(form.getByLabel('ID number')).not.toHaveValue('');
    await expect(page.getByTestId('form-photo')).toBeVisible();
    await form.getByLabel('Company').fill('Acme Couriers');
    await form.getByLabel('Visiting (host)').fill('Sam Operator');
    await form.getByLabel('Purpose').selectOption('delivery');
    await shot(page, 'visitor-register');
    await page.getByTestId('form-save').click();

    await expect(page).toHaveURL(/\/visitor\/details\/\d+$/);
    const details = page.getByTestId('visitor-details');
    await expect(details.getByRole('heading', { name: 'Nurul Aini binti Ismail' })).toBeVisible();
    await expect(details.getByTestId('visitor-photo')).toBeVisible();
    await expect(details).toContainText('Acme Couriers');
    await expect(page.getByTestId('badge-status')).toHaveText('Not printed yet.');
    await page.getByTestId('print-badge').click();
    await expect(page.getByTestId('badge-status')).toHaveText(/^Printed /);
    expect(companion.printed.at(-1)?.visitor).toMatchObject({ name: 'Nurul Aini binti Ismail', company: 'Acme Couriers', host: 'Sam Operator' });
    // arrival and departure
    await page.getByTestId('visitor-sign-in').click();
    await expect(page.getByTestId('visitor-status')).toHaveText('On site');
    await expect(details).toContainText('Signed in');
    await shot(page, 'visitor-details');
    await page.getByTestId('visitor-sign-out').click();
    await expect(page.getByTestId('visitor-status')).toHaveText('Left');
    await expect(page.getByTestId('visitor-sign-in')).toHaveCount(0);
    await expect(page.getByTestId('visitor-sign-out')).toHaveCount(0);

    // the server kept it: the list says the badge is printed
    await go(page, '/visitor/list');
    await page.getByLabel('Filter visitors').fill('Acme');
    const list = page.getByTestId('visitors');
    await expect(list.getByRole('row', { name: 'Nurul Aini binti Ismail' })).toBeVisible();
    await expect(list.getByText('Acme Couriers', { exact: true })).toBeVisible();
    await expect(list.getByText('Printed', { exact: true })).toBeVisible();
    await expect(list.getByRole('link', { name: 'Register visitor' })).toBeVisible();
    // and the front desk's day lists it
    await go(page, '/visitor');
    await expect(page.getByTestId('visitors-today').getByRole('row', { name: 'Nurul Aini binti Ismail' })).toBeVisible();
  } finally {
    await reader.close();
    await companion.close();
  }
});

test('without the companion the badge cannot be printed and the page says why', async ({ page }) => {
  await signIn(page, 'reception', { at: '/visitor/register' });
  const form = page.getByTestId('visitors-form');
  await form.getByLabel('First name').fill('Walk');
  await form.getByLabel('Last name').fill('In');
  await form.getByLabel('Visiting (host)').fill('Rita Reception');
  await page.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/visitor\/details\/\d+$/);
  await expect(page.getByTestId('badge-companion')).toContainText('desktop companion');
  await expect(page.getByTestId('print-badge')).toBeDisabled();

  // the sign-out route of a visitor who has not arrived says why, and offers signing in
  const id = /\/visitor\/details\/(\d+)$/.exec(page.url())![1];
  await go(page, `/visitor/sign-out/${id}/2026-01-01`);
  await expect(page.getByTestId('visitor-move-unavailable')).toContainText('Walk In cannot be signed out now: the visit is expected.');
  await page.getByTestId('visitor-sign-in').click();
  await expect(page.getByTestId('visitor-status')).toHaveText('On site');
});

test('a registration with missing fields is refused and names them', async ({ page }) => {
  await signIn(page, 'reception', { at: '/visitor/register' });
  await page.getByTestId('form-save').click();
  const form = page.getByTestId('visitors-form');
  await expect(form.getByLabel('First name')).toBeFocused();
  await expect(form).toContainText('First name is required');
  await expect(page).toHaveURL(/\/visitor\/register$/);
});

test('a registration matching the visitor watchlist warns the front desk with the reason, and waits for its decision', async ({ page, browser }) => {
  // issue 50: security keeps the watchlist; the receptionist reads it (no Add) and registers a visitor whose name
  // matches it in other case and accents
  const security = await (await browser.newContext()).newPage();
  await signIn(security, 'operator', { at: '/visitor/watchlist/add' });
  const entry = security.getByTestId('visitorWatchlist-form');
  await entry.getByLabel('Name').fill('Zoë Müller');
  await entry.getByLabel('Reason').fill('Stole a laptop in March');
  // the entry's photo (a picture the browser makes), shown to the front desk beside the visitor when one matches
  const face = await security.screenshot({ type: 'png', clip: { x: 0, y: 0, width: 120, height: 120 } });
  await security.locator('#field-photo').setInputFiles({ name: 'zoe.png', mimeType: 'image/png', buffer: face });
  await expect(security.getByTestId('field-photo-preview')).toBeVisible();
  await security.getByTestId('form-save').click();
  await expect(security.getByTestId('visitor-watchlist').getByRole('row').filter({ hasText: 'Zoë Müller' })).toBeVisible();
  await security.context().close();
  await signIn(page, 'reception', { at: '/visitor/watchlist' });
  await expect(page.getByTestId('visitor-watchlist').getByRole('row').filter({ hasText: 'Zoë Müller' })).toBeVisible();
  await expect(page.getByTestId('add-button')).toHaveCount(0);
  await go(page, '/visitor/register');
  const form = page.getByTestId('visitors-form');
  await form.getByLabel('First name').fill('ZOE');
  await form.getByLabel('Last name').fill('Muller');
  await form.getByLabel('Visiting (host)').fill('Sam Operator');
  await page.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/visitor\/details\/\d+$/);
  const warning = page.getByTestId('visitor-watchlist');
  await expect(warning).toContainText('This visitor matches the visitor watchlist');
  await expect(warning).toContainText('Stole a laptop in March');
  const entryPhoto = warning.getByTestId('visitor-watchlist-photo');
  await expect(entryPhoto).toBeVisible();
  expect(await entryPhoto.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);
  await expect(page.getByTestId('visitor-sign-in')).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'visitor-watchlist-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  // the reason is asked for first, then the decision is said and the visitor may be signed in
  await page.getByTestId('visitor-watchlist-admit').click();
  await expect(warning).toContainText('Why (kept in the audit trail) is required');
  await page.getByTestId('watchlist-reason').fill('Other date of birth');
  await page.getByTestId('visitor-watchlist-admit').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'ZOE Muller may be signed in' }).first()).toBeVisible();
  await expect(warning).toContainText('Let in after the watchlist check');
  await expect(page.getByTestId('visitor-sign-in')).toBeVisible();
  await shot(page, 'visitor-watchlist-1440');
});

test('a sign-in at one front desk shows at once on the other front desk\u2019s list of today', async ({ browser }) => {
  const desk1 = await (await browser.newContext()).newPage();
  const desk2 = await (await browser.newContext()).newPage();
  await signIn(desk1, 'reception');
  await signIn(desk2, 'reception');
  const token = await desk2.evaluate(() => localStorage.getItem('jwt'));
  // the client's day (Kuala Lumpur), not the browser's: after 16:00 UTC they differ
  const visitDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kuala_Lumpur', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const created = await desk2.request.post('/visitor/1.0/visitors', {
    headers: { authorization: `Bearer ${token}` },
    data: { firstName: 'Lee', lastName: 'Clocking', hostName: 'Sam Operator', visitDate },
  });
  expect(created.status()).toBe(201);
  const v = await created.json();

  await go(desk1, '/visitor');
  const today = desk1.getByTestId('visitors-today');
  await today.getByLabel('Filter visitors').fill('Clocking');
  await expect(today.getByRole('row', { name: 'Lee Clocking' })).toBeVisible();
  // the filtered list holds this visitor only (Blueprint's table keeps its status cell outside the row element)
  await expect(today.getByText('Expected', { exact: true }).first()).toBeVisible();

  await go(desk2, `/visitor/details/${v.id}`);
  await desk2.getByTestId('visitor-sign-in').click();
  await expect(desk2.getByTestId('visitor-status')).toHaveText('On site');
  await expect(today.getByText('On site', { exact: true }).first()).toBeVisible(); // no reload on desk 1
  await expect(today.getByLabel('Filter visitors')).toHaveValue('Clocking'); // and the filter stays
});
