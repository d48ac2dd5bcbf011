// Web hooks end to end (issue 11): an administrator adds a web hook in the console; a forced door raises an alarm; the
// receiver this test runs gets it signed (HMAC-SHA256 over "<timestamp>.<body>"); a receiver that fails twice gets it
// on the third try (the server runs with E2E=1: 1 s, 2 s backoff); the history screen shows all three attempts.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { test, type Page } from './fixtures';
import { expect } from './console.helpers';
import { shot, signIn, go } from './helpers';

const SECRET = 'e2e-web-hook-secret-0001';

async function startReceiver() {
  const got: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const failures = new Map<string, number>([['/flaky', 2]]);
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, body });
      const left = failures.get(req.url ?? '') ?? 0;
      if (left > 0) {
        failures.set(req.url ?? '', left - 1);
        res.writeHead(503).end('busy, try later');
        return;
      }
      res.writeHead(200).end('received');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { got, url: (p: string) => `http://127.0.0.1:${port}${p}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function forceDoorOpen(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const doors = await page.request.get('/event/manage/doors', { headers: { authorization: `Bearer ${token}` } });
  const door = (await doors.json()).items.find((d: { name: string }) => d.name === 'Server Room');
  const r = await page.request.post('/api/test/simulate', { headers: { authorization: `Bearer ${token}` }, data: { kind: 'door.forced', doorId: door.id } });
  expect(r.ok()).toBe(true);
}

test('a web hook receiver gets a signed alarm; a failing one gets it on the third try, and the history shows all three', async ({ page }) => {
  test.setTimeout(120_000);
  const rx = await startReceiver();
  try {
    await signIn(page, 'harbour'); // administrator of Harbour Health only
    // one hook through the console's form
    await go(page, '/manage/web-hooks/add');
    await page.getByLabel('Name').fill('Alarm desk');
    await page.getByLabel('Target URL').fill(rx.url('/alarms'));
    await page.getByLabel('Secret').fill(SECRET);
    await page.getByText('Alarm raised', { exact: true }).click();
    await page.getByTestId('form-save').click();
    await expect(page.getByTestId('web-hooks')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'Alarm desk' })).toBeVisible();
    // a second one whose receiver is busy twice, through the API
    const token = await page.evaluate(() => localStorage.getItem('jwt'));
    const made = await page.request.post('/event/manage/web-hooks', {
      headers: { authorization: `Bearer ${token}` },
      data: { name: 'Busy receiver', url: rx.url('/flaky'), secret: SECRET, active: true, alarmRaised: true },
    });
    expect(made.status()).toBe(201);
    const flakyId = (await made.json()).id;

    await forceDoorOpen(page);
    await expect.poll(() => rx.got.filter((g) => g.path === '/alarms').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    const d = rx.got.find((g) => g.path === '/alarms')!;
    const ts = String(d.headers['x-gatehouse-timestamp']);
    expect(d.headers['x-gatehouse-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(`${ts}.${d.body}`).digest('hex')}`);
    expect(JSON.parse(d.body)).toMatchObject({ type: 'alarm.raised', data: { state: 'raised' } });

    await expect.poll(() => rx.got.filter((g) => g.path === '/flaky').length, { timeout: 30_000 }).toBe(3);
    await go(page, '/manage/web-hooks');
    await page.getByRole('link', { name: 'History: Busy receiver' }).click();
    await expect(page).toHaveURL(new RegExp(`/manage/web-hooks/histories/${flakyId}$`));
    const rows = page.getByTestId('attempt');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText('200');
    await expect(rows.nth(1)).toContainText('503');
    await expect(rows.nth(2)).toContainText('503');
    await expect(rows.nth(0)).toContainText('delivered');
    await shot(page, 'web-hook-history');
    // only the failures
    await page.getByLabel('Outcome').selectOption('failed');
    await expect(rows).toHaveCount(2);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'web-hook-history-390');
  } finally {
    await rx.close();
  }
});
