// From the live events screen to the stored history: the jump keeps the screen's filter, and the event
// report filters by code, alarms only and time on the server.
import { expect, test } from './fixtures';
import { PASSWORD, shot, signIn, go } from './helpers';
import { provisionDeviceKeys, runDeviceSimulator } from '../scripts/deviceSimulator';

test('jump from the live events to the history, then filter it by code and alarms', async ({ page }) => {
  await signIn(page, 'operator');
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const auth = { authorization: `Bearer ${token}` };
  const door = (await (await page.request.get('/event/manage/doors', { headers: auth })).json()).items.find(
    (d: { name: string }) => d.name === 'Finance Vault',
  );
  const forced = await (await page.request.post('/api/test/simulate', { headers: auth, data: { kind: 'door.forced', doorId: door.id } })).json();

  await go(page, '/monitor/events');
  await page.getByTestId('events-filter').fill('Finance Vault');
  await page.getByTestId('events-history').click();
  await expect(page).toHaveURL(/\/report\/event\?q=Finance\+Vault$/);
  const report = page.getByTestId('event-report');
  await expect(report.getByText(forced.message, { exact: true }).first()).toBeVisible();

  // codes: a bad list is refused on the spot; a good one goes to the server with alarms only
  const codes = report.getByLabel('Event codes');
  await codes.fill('40o2');
  await expect(report.getByText('Whole numbers separated by commas')).toBeVisible();
  await expect(report.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await codes.fill(String(forced.eventCode));
  await report.getByText('Alarms only').click();
  await report.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`eventCode=${forced.eventCode}`));
  await expect(page).toHaveURL(/alert=true/);
  await expect(report.getByText(forced.message, { exact: true }).first()).toBeVisible();
  await expect(report.getByText('Open', { exact: true }).first()).toBeVisible();
  await shot(page, 'event-report');

  // a time range before the event leaves it out
  await report.getByLabel('To').fill('2020-01-01T00:00');
  await report.getByRole('button', { name: 'Apply' }).click();
  await expect(report.getByText('Nothing here yet')).toBeVisible();
  await expect(report.getByText(forced.message, { exact: true })).toHaveCount(0);
});

test('Export on the live events screen downloads the filtered history as NDJSON through the progress stream', async ({ page }) => {
  await signIn(page, 'operator');
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const auth = { authorization: `Bearer ${token}` };
  const door = (await (await page.request.get('/event/manage/doors', { headers: auth })).json()).items.find((d: { name: string }) => d.name === 'HR Office');
  const held = await (await page.request.post('/api/test/simulate', { headers: auth, data: { kind: 'door.held', doorId: door.id } })).json();

  // issue 50: the console cancelled the stream after its end event, before the server closed it (the browser logged
  // ERR_ABORTED …/export/progress). That is held by src/api/stream.test.ts against a real HTTP server (the body is read
  // to its close, nothing cut, however late the close comes), not here: with the body read to a normal close (done,
  // no cancel, no abort: seen by instrumenting the page) chromium still reported ERR_ABORTED for about 1 run in 4 on a
  // loaded machine, so a check of the browser's network events failed on the browser, not on the console.
  await go(page, '/monitor/events');
  await page.getByTestId('events-filter').fill(String(held.eventCode));
  await page.getByTestId('events-export-format').selectOption('ndjson');
  const download = page.waitForEvent('download');
  await page.getByTestId('events-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.ndjson$/);
  const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  const rows = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.some((r) => r.id === held.id)).toBe(true);
  expect(rows.every((r) => r.eventCode === held.eventCode)).toBe(true); // the screen's filter went with it
  await expect(page.getByTestId('events-export-error')).toHaveCount(0);
});

test('on a wide screen the live events table is at most 61% of the window high, scrolls inside, and keeps its header in view', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'operator');
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const auth = { authorization: `Bearer ${token}` };
  const door = (await (await page.request.get('/event/manage/doors', { headers: auth })).json()).items[0];
  await go(page, '/monitor/events');
  for (let i = 0; i < 30; i++) await page.request.post('/api/test/simulate', { headers: auth, data: { kind: 'door.forced', doorId: door.id } });
  const rows = page.getByTestId('event-row');
  await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(30);
  const box = page.getByTestId('events-scroll');
  const height = (await box.boundingBox())!.height;
  expect(height).toBeLessThanOrEqual(900 * 0.61 + 1);
  expect(await box.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await box.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  const header = page.getByTestId('events-table').getByRole('columnheader', { name: 'Code' });
  await expect(header).toBeInViewport();
  const [headerTop, boxTop] = [(await header.boundingBox())!.y, (await box.boundingBox())!.y];
  expect(Math.abs(headerTop - boxTop)).toBeLessThanOrEqual(2);
});

test("in a burst the rows below the fold wait unrendered; scrolling or the burst's end renders them", async ({ page, baseURL }) => {
  test.setTimeout(180_000); // the burst and its drain on a loaded machine (see the last wait)
  await page.setViewportSize({ width: 1440, height: 900 });
  // Harbour Health's administrator: the burst's thousands of events stay out of Northwind, where the other tests look
  await signIn(page, 'harbour', { at: '/monitor/events' });
  await expect(page.getByTestId('socket-status')).toHaveText(/connected/i);
  const admin = (await (await page.request.post('/idp/1.0/login', { data: { username: 'admin', password: PASSWORD } })).json()).token;
  const clients = await (await page.request.get('/central/1.0/clients', { headers: { authorization: `Bearer ${admin}` } })).json();
  const harbour = clients.items.find((c: { code: string }) => c.code === 'HARBOUR').id;
  const keys = await provisionDeviceKeys(baseURL!, { username: 'admin', password: PASSWORD }, 'Burst e2e', [harbour]);
  const far = page.locator('[data-testid=event-row].gh-row-far');
  const rows = page.getByTestId('event-row');
  // 2,000 events/s until the test has seen the burst and scrolled (each frame brings more rows than the table shows):
  // it waits for the states it checks, never for the stream to last long enough on a loaded machine (it once ran 4 s
  // and a stalled page saw its first burst frame after that)
  const sending = new AbortController();
  const stream = runDeviceSimulator({ url: baseURL!, keys, controllers: 20, rate: 2000, durationS: 60, signal: sending.signal, alarmEvery: 1_000_000 });
  await expect.poll(() => far.count()).toBeGreaterThan(100);
  // the rows in view are rendered, those below the fold are not
  await expect(rows.first()).not.toHaveClass(/gh-row-far/);
  await expect(rows.first().getByRole('cell').first()).toBeVisible();
  await expect(far.first().getByRole('cell').first()).not.toBeVisible();
  // the operator scrolls: everything is rendered while they read
  await page.getByTestId('events-scroll').evaluate((el) => {
    el.scrollTop = 600;
  });
  // (how soon is the benchmarks' to judge: a loaded machine paints the next frame late, a burst still coming in)
  await expect.poll(() => far.count()).toBe(0);
  await page.getByTestId('events-scroll').evaluate((el) => {
    el.scrollTop = 0;
  });
  // how fast the server takes the burst is the ingest benchmark's to judge (npm run bench -- ingest), not this test's
  sending.abort();
  await stream;
  // after the burst's last frame every row is rendered again (after BURST_CALM_FRAMES painted frames, not a timer); the
  // last frame comes when the server has delivered what it took, which on a loaded machine trails the sender by many
  // seconds (a run at load 12 still had frames coming 20 s after the simulator stopped)
  await expect.poll(() => far.count(), { timeout: 60_000 }).toBe(0);
  await expect(rows.nth(150).getByRole('cell').first()).toBeAttached();
  await rows.nth(150).scrollIntoViewIfNeeded();
  await expect(rows.nth(150).getByRole('cell').first()).toBeVisible();
});
