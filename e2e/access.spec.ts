// Access configuration decides what the doors do (issue 12), end to end against the simulator: a schedule that ends
// at 18:00 denies a swipe at 18:01 (simulated clock) with "outside schedule" in the live events and in the "Why?"
// drawer; a holiday denies the same swipe at 10:00, shown in the event report and explained there too.
import { expect, test, type APIRequestContext } from './fixtures';
import { shot, signIn } from './helpers';

/** An administrator's token with Northwind selected (the configuration is set through the same API the console uses). */
async function adminToken(request: APIRequestContext): Promise<string> {
  const login = await request.post('/idp/1.0/login', { data: { username: 'admin', password: 'Gatehouse1!' } });
  expect(login.ok()).toBe(true);
  const token = (await login.json()).token as string;
  const clients = await (await request.get('/central/1.0/clients', { headers: { authorization: `Bearer ${token}` } })).json();
  const northwind = clients.items.find((c: { code: string }) => c.code === 'NORTHWIND').id;
  const selected = await request.put('/idp/1.0/me/client', { headers: { authorization: `Bearer ${token}` }, data: { clientId: northwind } });
  expect(selected.ok()).toBe(true);
  return (await selected.json()).token as string;
}

/** 2026-11-24 is a Tuesday; Northwind's zone is Asia/Kuala_Lumpur (UTC+8). */
const at = (hhmm: string) => `2026-11-24T${hhmm}:00+08:00`;

test('a schedule ending at 18:00 denies 18:01 (outside schedule), a holiday denies 10:00 (special day); Why? explains both', async ({ page, request }) => {
  const token = await adminToken(request);
  const auth = { authorization: `Bearer ${token}` };
  const api = {
    get: async (path: string) => {
      const r = await request.get(path, { headers: auth });
      expect(r.ok(), `${path}: ${r.status()}`).toBe(true);
      return r.json();
    },
    send: async (method: 'post' | 'put', path: string, data: unknown) => {
      const r = await request[method](path, { headers: auth, data });
      expect(r.ok(), `${method} ${path}: ${r.status()} ${await r.text()}`).toBe(true);
      return r.json();
    },
  };

  // a door on a schedule that ends at 18:00, for Staff (every seeded identity) and Security alike
  const door = (await api.get('/event/manage/doors')).items.find((d: { name: string }) => d.name === 'Loading Bay');
  const schedule = await api.send('post', '/event/manage/schedules', {
    name: 'Until six (e2e)',
    windows: [0, 1, 2, 3, 4, 5, 6].map((d) => ({ day: String(d), start: '08:00', end: '18:00' })),
    specialWindows: [],
  });
  for (const g of (await api.get('/event/manage/access-groups')).items) {
    const doors = g.doors.map((x: { id: number; doorId: number; scheduleId: number }) => (x.doorId === door.id ? { ...x, scheduleId: schedule.id } : x));
    await api.send('put', `/event/manage/access-groups/${g.id}`, {
      name: g.name,
      description: g.description,
      doors,
      members: g.members,
      updatedAt: g.updatedAt,
    });
  }
  const person = (await api.get('/event/manage/identities?status=active&size=20')).items.find((i: { credentials: unknown[] }) => i.credentials.length);
  const card = person.credentials[0].number as string;
  const swipe = (time: string) => api.send('post', '/api/test/simulate', { kind: 'card.granted', doorId: door.id, card, at: at(time) });

  await signIn(page, 'operator', { at: '/monitor/events' });
  await expect(page.getByTestId('socket-status')).toHaveText(/connected/);

  expect((await swipe('17:59')).eventCode).toBe(5000);
  const late = await swipe('18:01');
  expect(late.eventCode).toBe(5007);
  const row = page
    .getByTestId('event-row')
    .filter({ hasText: `card ${card}` })
    .filter({ hasText: 'outside schedule' })
    .first();
  await expect(row).toBeVisible();
  await row.getByTestId('why-button').click();
  const drawer = page.getByTestId('why-drawer');
  await expect(drawer.getByTestId('why-reason')).toContainText('Access denied: outside schedule');
  await expect(drawer.getByTestId('why-step')).toHaveCount(5);
  await expect(drawer.getByTestId('why-step').last()).toContainText('08:00–18:00');
  await expect(drawer).toContainText('Loading Bay');
  // the drawer outlives its row: 200 newer events push the row out of the live table (it shows the newest 200)
  for (let i = 0; i < 10; i++) await Promise.all(Array.from({ length: 21 }, () => swipe('17:59')));
  await expect(
    page
      .getByTestId('event-row')
      .filter({ hasText: `card ${card}` })
      .filter({ hasText: 'outside schedule' }),
  ).toHaveCount(0);
  await expect(drawer.getByTestId('why-reason')).toContainText('Access denied: outside schedule');
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'access-why-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'access-why-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // a holiday on that date: the same card at 10:00 is denied for the special day
  expect((await swipe('10:00')).eventCode).toBe(5000);
  await api.send('post', '/event/manage/special-dates', { name: 'Company holiday (e2e)', date: '2026-11-24', yearly: false, kind: 'holiday' });
  const holiday = await swipe('10:00');
  expect(holiday.eventCode).toBe(5008);
  await expect(
    page
      .getByTestId('event-row')
      .filter({ hasText: `card ${card}` })
      .filter({ hasText: 'special day' })
      .first(),
  ).toBeVisible();

  // the event report explains the stored swipe too
  await page.goto('/report/event');
  // newest first: the holiday's denied swipe is the top row, and its Why? the first one in the list
  await expect(page.getByText(`Access denied: special day: ${person.firstName} ${person.lastName} (card ${card})`).first()).toBeVisible();
  await page.getByTestId('why-button').first().click();
  await expect(page.getByTestId('why-reason')).toContainText('Access denied: special day');
  await expect(page.getByTestId('why-step').last()).toContainText('Company holiday (e2e)');
  await shot(page, 'access-why-report');
});
