// Alarm notifications (issue 12): an administrator tells a pager web hook of priority-1 alarms in the generated form;
// a forced door (priority 1) reaches the receiver as a signed `alarm.notification`, a door held open (priority 3)
// does not.
import { createServer } from 'node:http';
import { expect, test } from './fixtures';
import { bearer, pick, shot, signIn } from './helpers';

test('an alarm notification sends the alarms up to its priority to its web hook', async ({ page }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const got: { body: string; signature: string | undefined }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      got.push({ body, signature: req.headers['x-gatehouse-signature'] as string | undefined });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    await signIn(page, 'admin', { client: 'Northwind Logistics' });
    const token = await page.evaluate(() => localStorage.getItem('jwt'));
    const headers = { authorization: `Bearer ${token}` };
    // the pager only takes notifications (it subscribes to no event of its own)
    const hook = await page.request.post('/event/manage/web-hooks', {
      headers,
      data: { name: `Pager ${stamp}`, url: `http://127.0.0.1:${port}/pager`, secret: 'e2e-pager-secret-00001', active: true },
    });
    expect(hook.status()).toBe(201);

    await page.getByTestId('sidebar').getByRole('link', { name: 'Alarm notifications', exact: true }).click();
    await page.getByTestId('alarm-notifications').getByTestId('add-button').click();
    await page.locator('#field-name').fill(`Supervisor ${stamp}`);
    await expect(page.locator('#field-maxPriority')).toHaveValue('1');
    await page.locator('[id="field-webHookId"]').click();
    await page.locator('.bp6-popover input:focus').fill(`Pager ${stamp}`);
    await page
      .getByRole('option', { name: `Pager ${stamp}` })
      .first()
      .click();
    await expect(page.locator('[id="field-webHookId"]')).toContainText(`Pager ${stamp}`);
    await page.getByTestId('form-save').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Alarm notification saved' }).first()).toBeVisible();
    await expect(
      page
        .getByTestId('alarm-notifications')
        .getByRole('row')
        .filter({ hasText: `Supervisor ${stamp}` }),
    ).toBeVisible();
    await shot(page, 'alarm-notifications-1440');

    const door = (await (await page.request.get('/event/manage/doors', { headers })).json()).items.find((d: { name: string }) => d.name === 'Finance Vault');
    const held = await (await page.request.post('/api/test/simulate', { headers, data: { kind: 'door.held', doorId: door.id } })).json();
    const forced = await (await page.request.post('/api/test/simulate', { headers, data: { kind: 'door.forced', doorId: door.id } })).json();
    await expect.poll(() => got.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const bodies = got.map((g) => JSON.parse(g.body));
    expect(bodies[0]).toMatchObject({
      type: 'alarm.notification',
      notification: { name: `Supervisor ${stamp}` },
      data: { eventId: Number(forced.id), priority: 1 },
    });
    expect(got[0].signature).toMatch(/^sha256=/);
    expect(bodies.some((b) => b.data.eventId === Number(held.id))).toBe(false);
    await page.request.post('/api/test/simulate', { headers, data: { kind: 'door.closed', doorId: door.id } });
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test("an alarm notification tells an operator group's consoles, and only its members", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  await signIn(page, 'admin', { client: 'Northwind Logistics' });
  const headers = await bearer(page);
  const operators = (await (await page.request.get('/event/manage/operators?size=100', { headers })).json()).items as { id: number; username: string }[];
  const operator = operators.find((o) => o.username === 'operator')!;
  expect(
    (await page.request.post('/event/manage/operator-groups', { headers, data: { name: `Night desk ${stamp}`, members: [operator.id], grants: [] } })).status(),
  ).toBe(201);

  // the operator is at the console, on the dashboard (its clock runs as real time does, and is run ahead below)
  const desk = await (await browser.newContext()).newPage();
  await desk.clock.install();
  await signIn(desk, 'operator');

  await page.getByTestId('sidebar').getByRole('link', { name: 'Alarm notifications', exact: true }).click();
  await page.getByTestId('alarm-notifications').getByTestId('add-button').click();
  await page.locator('#field-name').fill(`Desk ${stamp}`);
  // neither a web hook nor a group: said on the field, nothing saved
  await page.getByTestId('form-save').click();
  await expect(
    page.locator('[data-field="webHookId"], .bp6-form-group').filter({ hasText: 'is required unless an operator group is told' }).first(),
  ).toBeVisible();
  await pick(page, 'operatorGroupId', `Night desk ${stamp}`);
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Alarm notification saved' }).first()).toBeVisible();
  await expect(
    page
      .getByTestId('alarm-notifications')
      .getByRole('row')
      .filter({ hasText: `Desk ${stamp}` })
      .first(),
  ).toBeVisible();
  await expect(page.getByTestId('alarm-notifications')).toContainText(`Night desk ${stamp}`); // the operator-group column

  const door = (await (await page.request.get('/event/manage/doors', { headers })).json()).items.find((d: { name: string }) => d.name === 'Finance Vault');
  await page.request.post('/api/test/simulate', { headers, data: { kind: 'door.forced', doorId: door.id } });
  const told = desk.getByTestId('toast').filter({ hasText: `Desk ${stamp} · P1` });
  await expect(told).toBeVisible({ timeout: 15_000 });
  await expect(told).toContainText('Alarm notification');
  // the administrator is not in the group: no notice on that console
  await expect(page.getByTestId('toast').filter({ hasText: `Desk ${stamp} · P1` })).toHaveCount(0);
  // priority 1 stays until seen: the console's timers run 16 s ahead at once (a notice of another priority is gone after 15)
  await desk.clock.runFor(16_000);
  await expect(told).toBeVisible();
  await shot(desk, 'alarm-notice-console-1440');
  await page.request.post('/api/test/simulate', { headers, data: { kind: 'door.closed', doorId: door.id } });
  await desk.context().close();
});
