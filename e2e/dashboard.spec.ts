// The dashboard per role, live (issue 10): the operator's alarm and event charts, reception's visitors of today
// following sign-ins as they happen, HR without the activity report's "recent changes"; the charts' library is
// fetched by the dashboard only.
import { expect as baseExpect, test, type Page } from './fixtures';
import { PASSWORD, shot, signIn } from './helpers';

// waits on visible facts only; the generous limits are for a shared, heavily loaded machine
const expect = baseExpect.configure({ timeout: 30_000 });
test.setTimeout(240_000);

async function headers(page: Page) {
  return { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('jwt'))}` };
}

test('a cold dashboard asks what it waits for once each, early, from the entry (issue 48, src/api/early.ts)', async ({ page }) => {
  const asked: { path: string; by: string }[] = [];
  const probed: number[] = []; // when the desktop companion's discovery asked a loopback port (Date.now())
  const order: string[] = []; // the console's chunk in, the opening screen's chunk and figures asked, as the browser said
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === 'GET') asked.push({ path, by: r.resourceType() });
    if (path === '/api/check-port') probed.push(Date.now());
    if (/^\/assets\/DashboardScreen-[\w-]+\.js$/.test(path)) order.push('screen chunk asked');
    if (path === '/event/manage/dashboard') order.push('figures asked');
  });
  page.on('requestfinished', (r) => {
    if (/^\/assets\/console-[\w-]+\.js$/.test(new URL(r.url()).pathname)) order.push('console chunk in');
  });
  await signIn(page, 'operator', { at: '/dashboard' });
  await expect(page.getByTestId('dash-counts')).toBeVisible();
  await expect(page.getByTestId('handover')).toBeVisible();
  // each once, by the entry's fetch (the console's axios asks with XMLHttpRequest): the console's own requests were
  // answered by the early ones (an early answer not taken, or none asked early, shows as an 'xhr')
  const by = (path: string) => asked.filter((a) => a.path === path).map((a) => a.by);
  expect({ me: by('/idp/1.0/me'), figures: by('/event/manage/dashboard'), handover: by('/event/handover/latest') }).toEqual({
    me: ['fetch'],
    figures: ['fetch'],
    handover: ['fetch'],
  });
  // the figures are asked once the console's code is in (on the embedded database their queries hold the server's one
  // thread: the console's chunk asked beside them came after them), and the screen's chunk before them
  expect(order.indexOf('figures asked'), order.join(', ')).toBe(order.length - 1);
  expect([...order].sort(), order.join(', ')).toEqual(['console chunk in', 'figures asked', 'screen chunk asked']);
  // and the console marks when its opening screen has its first answers drawn (bench/firstload.ts times it by that mark)
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName('gatehouse:opening-screen-read', 'mark').length), { timeout: 15_000 }).toBe(1);
  // the companion's discovery (ten refused loopback requests where none runs) waits for that mark, so it takes nothing
  // from what the screen waits for; it does run after it
  const readAt = await page.evaluate(() => performance.timeOrigin + performance.getEntriesByName('gatehouse:opening-screen-read', 'mark')[0].startTime);
  await expect.poll(() => probed.length, { timeout: 15_000 }).toBeGreaterThan(0);
  expect(Math.min(...probed)).toBeGreaterThanOrEqual(readAt);
});

test('after a sign-in through the form, what the console loads later waits for the dashboard, not for the sign-in screen (issue 48)', async ({ page }) => {
  // the sign-in page mounts the console on its own sign-in screen to take the form over: that screen drew nothing the
  // operator waits for, and the overlays' and menus' code and the live connection's libraries it released came in the
  // middle of the sign-in and the dashboard's load
  let figuresAnswered = 0;
  const later: number[] = []; // when code loaded after the opening screen was asked (Date.now())
  page.on('requestfinished', (r) => {
    if (new URL(r.url()).pathname === '/event/manage/dashboard' && !figuresAnswered) figuresAnswered = Date.now();
  });
  page.on('request', (r) => {
    if (/^\/assets\/(popoverKit|toaster|SettingsDrawer|SidebarDrawer)-[\w-]+\.js$/.test(new URL(r.url()).pathname)) later.push(Date.now());
  });
  await page.goto('/login');
  await page.getByLabel('Username').fill('operator');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('dash-counts')).toBeVisible();
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName('gatehouse:opening-screen-read', 'mark').length), { timeout: 15_000 }).toBe(1);
  const readAt = await page.evaluate(() => performance.timeOrigin + performance.getEntriesByName('gatehouse:opening-screen-read', 'mark')[0].startTime);
  expect(figuresAnswered).toBeGreaterThan(0);
  expect(readAt).toBeGreaterThanOrEqual(figuresAnswered);
  await expect.poll(() => later.length, { timeout: 15_000 }).toBeGreaterThan(0);
  expect(Math.min(...later)).toBeGreaterThanOrEqual(readAt);
});

test('the charts library is loaded by the dashboard only', async ({ page }) => {
  await signIn(page, 'operator');
  // the sign-in lands on the dashboard, whose charts load as it draws: they are in before counting what another screen
  // fetches (a late chart request of the dashboard left behind was counted against the alarms screen: failed in CI)
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('widget-eventsPerHour').getByTestId('chart-bars')).toBeVisible();
  const fetched: string[] = [];
  page.on('request', (r) => {
    if (/\.js$/.test(r.url())) fetched.push(r.url());
  });
  await page.goto('/monitor/alarms');
  await expect(page.getByTestId('alarms-screen')).toBeVisible();
  expect(fetched.filter((u) => u.includes('DashboardWidgets'))).toEqual([]);
  await page.goto('/dashboard');
  await expect(page.getByTestId('widget-eventsPerHour').getByTestId('chart-bars')).toBeVisible();
  expect(fetched.filter((u) => u.includes('DashboardWidgets'))).toHaveLength(1);
});

test("the operator's open alarms by priority follow a new alarm live, and the chart opens the alarms", async ({ page }) => {
  await signIn(page, 'operator', { at: '/dashboard' });
  const chart = page.getByTestId('widget-alarmsByPriority');
  await expect(chart).toBeVisible();
  await expect(page.getByTestId('widget-alarmsPerHour').getByTestId('chart-bars')).toBeVisible();
  await expect(page.getByTestId('widget-eventsPerHour')).toBeVisible();
  await expect(page.getByTestId('widget-doorStatus')).toBeVisible();
  await expect(page.getByTestId('widget-visitorsToday')).toHaveCount(0); // not the operator's screen
  // the count once the live feed has read the open alarms (before, the card says it is loading, never "0 open": a flake
  // in CI on 2026-12-05 read 0 there, and the alarm already open came with the new one)
  await expect(chart.getByTestId('alarms-by-priority-loading')).toHaveCount(0);
  const before = Number((await chart.locator('.gh-card-title__aside').textContent())!.split(' ')[0]);
  const h = await headers(page);
  const doors = (await (await page.request.get('/event/manage/doors', { headers: h })).json()).items;
  expect((await page.request.post('/api/test/simulate', { headers: h, data: { kind: 'door.forced', doorId: doors[2].id } })).ok()).toBe(true);
  await expect(chart.locator('.gh-card-title__aside')).toHaveText(`${before + 1} open`);
  await expect(chart.locator('.gh-barchart__bar').first()).toBeVisible();
  await shot(page, 'dashboard-operator');
  await page.getByTestId('widget-alarmsByPriority-link').click();
  await expect(page).toHaveURL(/\/monitor\/alarms$/);
});

test("reception sees today's visitors, live as one signs in, and no controllers or divisions", async ({ page }) => {
  await signIn(page, 'reception', { at: '/dashboard' });
  const widget = page.getByTestId('widget-visitorsToday');
  await expect(widget).toBeVisible();
  await expect(page.getByTestId('widget-controllers')).toHaveCount(0);
  await expect(page.getByTestId('widget-divisions')).toHaveCount(0);
  await expect(page.getByTestId('widget-alarmsByPriority')).toHaveCount(0);
  const h = await headers(page);
  const day = (await (await page.request.get('/event/manage/dashboard', { headers: h })).json()).visitorsToday.day as string;
  const onSite = Number(await page.getByTestId('visitors-on-site').locator('strong').textContent());
  const visitor = await page.request.post('/visitor/1.0/visitors', {
    headers: h,
    data: { firstName: 'Vera', lastName: 'Visit', hostName: 'Hana HR', purpose: 'meeting', visitDate: day },
  });
  expect(visitor.ok()).toBe(true);
  const { id } = await visitor.json();
  expect((await page.request.post(`/visitor/1.0/visitors/${id}/sign-in`, { headers: h })).ok()).toBe(true);
  await expect(page.getByTestId('visitors-on-site').locator('strong')).toHaveText(String(onSite + 1)); // no reload
  await shot(page, 'dashboard-reception');
  await widget.getByTestId('widget-visitorsToday-link').click();
  await expect(page).toHaveURL(/\/visitor$/);
});

test('HR sees no "recent changes" (door commands, visitor actions): the activity report is not theirs', async ({ page }) => {
  await signIn(page, 'hr', { at: '/dashboard' });
  await expect(page.getByTestId('widget-identities')).toBeVisible();
  await expect(page.getByTestId('widget-recentChanges')).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Page 2' })).toHaveCount(0);
  const body = await (await page.request.get('/event/manage/dashboard', { headers: await headers(page) })).json();
  expect(body.recentChanges).toBeUndefined();
  // issue 50: HR's figure of the day, as the server counted it, leading to Daily Attendance
  const attendance = page.getByTestId('widget-attendanceToday');
  await expect(attendance.getByTestId('attendance-present')).toContainText(`${body.attendanceToday.present} Present`);
  await expect(attendance.getByTestId('attendance-expected')).toContainText(`${body.attendanceToday.expected} expected at work today`);
  await attendance.getByTestId('widget-attendanceToday-link').click();
  await expect(page).toHaveURL(/\/attendance\/daily-attendance$/);
});
