// Threat levels (issue 12): an administrator declares a level that holds the doors locked in the generated form,
// puts it in force for the whole client for some minutes from the panel above the list (asked first, answered with
// a toast), a card is then refused at a door and the panel says who set it and when it reverts; lowering it lets the
// same card through again. Issue 29: a security operator sets a level that holds the doors of one site locked from the
// doors screen; those rows say which level holds them and why, offer no Unlock or Open briefly, and at 390 px every
// door is a card whose commands are on screen.
import { expect, test, type APIRequestContext } from './fixtures';
import { selectThreatCurrent, selectThreatError, selectThreatMayChange, threatLevelMachine } from '../machines/threatLevel';
import type { ThreatState } from '../contract';
import { apiCall, bearer, shot, signIn } from './helpers';
import { consolePaths, consoleStart, type ConsoleWorld, type ModelStep } from './modelPaths';

test('a threat level set from the console holds the doors, and lowering it gives them back', async ({ page }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  await signIn(page, 'admin', { client: 'Northwind Logistics' });
  const headers = await bearer(page);
  const door = (await (await page.request.get('/event/manage/doors', { headers })).json()).items.find((d: { name: string; mode: string }) => d.mode === 'card');
  const granted = await (await page.request.post('/api/test/simulate', { headers, data: { kind: 'card.granted', doorId: door.id } })).json();
  expect(granted.eventCode).toBe(5000);
  const card = /card (\S+)\)/.exec(granted.message)![1];
  const swipe = async () =>
    (await (await page.request.post('/api/test/simulate', { headers, data: { kind: 'card.granted', doorId: door.id, card } })).json()).eventCode;
  const used = new Set(
    ((await (await page.request.get('/event/manage/threat-levels?size=100', { headers })).json()).items as { rank: number }[]).map((l) => l.rank),
  );
  const rank = [...Array(99).keys()].map((i) => i + 1).find((r) => !used.has(r))!;

  await page.getByTestId('sidebar').getByRole('link', { name: 'Threat levels', exact: true }).click();
  const screen = page.getByTestId('threat-levels');
  await expect(screen.getByTestId('threat-current')).toContainText('No threat level is in force now.');
  await screen.getByTestId('add-button').click();
  await page.locator('#field-name').fill(`Lockout ${stamp}`);
  await page.locator('#field-rank').fill(String(rank));
  await page.locator('#field-mode').selectOption('locked');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Threat level saved' }).first()).toBeVisible();

  await screen.getByTestId('threat-level').selectOption({ label: `${rank} · Lockout ${stamp}` });
  await screen.getByTestId('threat-minutes').fill('0');
  await expect(screen.getByText('A whole number of minutes from 1 to 10080')).toBeVisible();
  await expect(screen.getByTestId('threat-set')).toBeDisabled();
  await screen.getByTestId('threat-minutes').fill('30');
  await screen.getByTestId('threat-set').click();
  await expect(page.getByTestId('threat-confirm')).toContainText(`Put Lockout ${stamp} in force for the whole client? Doors held locked.`);
  await page.getByRole('alertdialog').getByRole('button', { name: 'Set level', exact: true }).click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `Lockout ${stamp} is in force: Doors held locked.` })
      .first(),
  ).toBeVisible();
  const current = screen.getByTestId('threat-current');
  await expect(current).toContainText(`In force: Lockout ${stamp}`);
  await expect(current).toContainText('Set by Alex Admin at');
  await expect(current).toContainText('reverts by itself at');
  // refused under the level: its own code and words, not the lockdown's 5004 (issue 29)
  expect(await swipe()).toBe(5013);
  await shot(page, 'threat-levels-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'threat-levels-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  await screen.getByTestId('threat-lower').click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Lower to none', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'No threat level is in force now.' }).first()).toBeVisible();
  await expect(current).toContainText('No threat level is in force now.');
  expect(await swipe()).toBe(5000);
});

/** An administrator's headers with Northwind selected (the level is declared through the API the console uses). */
async function adminHeaders(request: APIRequestContext): Promise<{ authorization: string }> {
  const login = await request.post('/idp/1.0/login', { data: { username: 'admin', password: 'Gatehouse1!' } });
  expect(login.ok()).toBe(true);
  const auth = { authorization: `Bearer ${(await login.json()).token}` };
  const clients = await (await request.get('/central/1.0/clients', { headers: auth })).json();
  const northwind = clients.items.find((c: { code: string }) => c.code === 'NORTHWIND').id;
  const selected = await request.put('/idp/1.0/me/client', { headers: auth, data: { clientId: northwind } });
  expect(selected.ok()).toBe(true);
  return { authorization: `Bearer ${(await selected.json()).token}` };
}

test("a security operator sets a level that holds a site's doors: the doors screen says which level holds each and offers no way to open them, and on a phone every door is a card", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const headers = await adminHeaders(request);
  const CURRENT = '/event/manage/threat-levels/current';
  const stamp = Date.now().toString(36);
  const name = `NC1 Red ${stamp}`;
  const used = new Set(
    ((await (await request.get('/event/manage/threat-levels?size=100', { headers })).json()).items as { rank: number }[]).map((l) => l.rank),
  );
  const rank = [...Array(99).keys()].map((i) => i + 1).find((r) => !used.has(r))!;
  const made = await request.post('/event/manage/threat-levels', { headers, data: { name, rank, mode: 'locked', description: null, exemptGroupIds: [] } });
  expect(made.status()).toBe(201);
  expect((await request.post(CURRENT, { headers, data: { levelId: null } })).ok()).toBe(true);

  await signIn(page, 'operator', { at: '/configure/doors' });
  await expect(page.getByTestId('doors-table')).toBeVisible();
  await expect(page.locator('[data-testid="door-row"][data-held]')).toHaveCount(0);
  const panel = page.getByTestId('doors-threat');
  await panel.getByTestId('doors-threat-open').click();
  await panel.getByTestId('doors-threat-choose').selectOption({ label: `${rank} · ${name}` });
  await panel.getByTestId('doors-threat-where').selectOption({ label: 'Warehouse' });
  await panel.getByTestId('doors-threat-minutes').fill('30');
  await panel.getByTestId('doors-threat-set').click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Set level', exact: true }).click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: `${name} is in force: Doors held locked.` })
      .first(),
  ).toBeVisible();

  // the rows the server says are held (by the engine's rule) are marked with the level, and only those
  const doors = (await (await request.get('/event/manage/doors', { headers })).json()).items as {
    id: number;
    name: string;
    mode: string;
    heldBy: { name: string } | null;
  }[];
  const heldDoors = doors.filter((d) => d.heldBy);
  expect(heldDoors.length).toBeGreaterThan(0);
  expect(heldDoors.every((d) => d.heldBy!.name === name)).toBe(true);
  const freeDoor = doors.find((d) => !d.heldBy && d.mode !== 'locked-down')!;
  expect(freeDoor).toBeTruthy();
  const rows = page.locator('[data-testid="door-row"][data-held="threat"]');
  await expect(rows).toHaveCount(heldDoors.length);
  const rowOf = (doorName: string) => page.getByTestId('door-row').filter({ has: page.getByText(doorName, { exact: true }) });
  const held = rowOf(heldDoors[0].name);
  await expect(held.getByTestId('door-held')).toHaveText(`Held by threat level ${name}`);
  await expect(held.getByTestId('door-held-reason')).toHaveText('Locked until the threat level is lowered');
  for (let i = 0; i < heldDoors.length; i++) {
    const row = rows.nth(i);
    await expect(row.getByTestId('door-held')).toBeVisible();
    await expect(row.getByTestId('door-unlock')).toHaveCount(0);
    await expect(row.getByTestId('door-momentary-unlock')).toHaveCount(0);
  }
  const free = rowOf(freeDoor.name);
  await expect(free.getByTestId('door-held')).toHaveCount(0);
  await expect(free.getByRole('button').first()).toBeVisible();
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'doors-held-1440');

  // a phone: cards, nothing off to the side; a free door's commands are on screen, a held door says why it has none
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('doors-table').locator('thead')).toBeHidden();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect.poll(() => page.getByTestId('doors-table-scroll').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const buttons = free.getByRole('button');
  expect(await buttons.count()).toBeGreaterThan(0);
  for (let i = 0; i < (await buttons.count()); i++) {
    await buttons.nth(i).scrollIntoViewIfNeeded();
    await expect(buttons.nth(i)).toBeInViewport({ ratio: 1 });
    const box = (await buttons.nth(i).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  // a card is one door: its name above its commands, both within the card's width
  const card = (await free.boundingBox())!;
  expect(card.width).toBeLessThanOrEqual(390);
  const nameBox = (await free.locator('.gh-doors__name').boundingBox())!;
  expect(nameBox.y).toBeLessThan((await buttons.first().boundingBox())!.y);
  // a card has no column heading: a door with no change known shows nothing there, not a lone dash
  const changed = await page.getByTestId('door-changed').evaluateAll((cells) => cells.map((c) => (c as HTMLElement).innerText.trim()));
  expect(changed.length).toBeGreaterThan(0);
  expect(changed.filter((t) => t === '—')).toEqual([]);
  await held.scrollIntoViewIfNeeded();
  await expect(held.getByTestId('door-held')).toBeInViewport();
  await expect(held.getByTestId('door-held-reason')).toBeInViewport();
  await expect(held.getByTestId('door-unlock')).toHaveCount(0);
  await shot(page, 'doors-held-390');
  await free.scrollIntoViewIfNeeded();
  await shot(page, 'doors-free-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  // lowered from the panel: no row is held any more, and the held door offers its commands again
  await panel.getByTestId('doors-threat-lower').click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Lower to none', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'No threat level is in force now.' }).first()).toBeVisible();
  await expect(page.locator('[data-testid="door-row"][data-held]')).toHaveCount(0);
  await expect(held.getByRole('button').first()).toBeVisible();
});

// Issue 51: the doors screen's threat panel driven along the paths of its own machine's graph (e2e/modelPaths.ts). The
// model is machines/threatLevel.ts itself joined to the server it talks to (one level in force: none, the operator's
// site, or the whole client set by another console); each edge between two settled states is played from a fresh
// screen, and after every step the panel must show what the machine's selectors say of that state, all at one moment.
const SITE_ID = 2;
const LEVEL = { id: 1, name: 'L', rank: 1, mode: 'locked' };
type Held = 'none' | 'site' | 'whole';
const inForce = (held: Held): ThreatState => ({
  level: held === 'none' ? null : LEVEL,
  divisionId: held === 'site' ? SITE_ID : null,
  divisionName: held === 'site' ? 'site' : null,
  setAt: held === 'none' ? null : '2026-12-02T08:00:00Z',
  setBy: held === 'none' ? null : 'someone',
  until: null,
});
const threatWorld: ConsoleWorld<typeof threatLevelMachine, { held: Held }> = {
  machine: threatLevelMachine,
  input: { mayControl: true },
  world: { held: 'none' },
  answer: (id, s, world) => {
    if (id === 'read')
      return { output: { current: inForce(world.held), levels: [LEVEL], divisions: [{ id: SITE_ID, name: 'site' }], wholeClient: false }, world };
    const asked = s.context.request!;
    const held: Held = asked.levelId === null ? 'none' : asked.divisionId === null ? 'whole' : 'site';
    return { output: inForce(held), world: { held } };
  },
  steps: {
    'the operator sets the level for their site': () => ({ event: { type: 'threat.set', levelId: LEVEL.id, divisionId: SITE_ID, minutes: null } }),
    'the operator lowers it': () => ({ event: { type: 'threat.lower' } }),
    'another console sets it for the whole client': () => ({ world: { held: 'whole' }, event: { type: 'threat.changed' } }),
    'another console lowers it': () => ({ world: { held: 'none' }, event: { type: 'threat.changed' } }),
  },
  serialize: (s, w) =>
    JSON.stringify([
      s.value,
      w.held,
      s.context.current?.level?.id ?? null,
      s.context.current?.divisionId ?? null,
      selectThreatMayChange(s),
      s.context.error !== null,
    ]),
};

test("the doors screen's threat panel along every edge of its machine's graph shows what the machine's state says", async ({ page, request }) => {
  test.setTimeout(180_000);
  const paths = consolePaths(threatWorld);
  // none → site, none → whole, site → none twice (the operator, another console), site → whole, whole → none
  expect(paths.map((p) => p.description).length).toBeGreaterThanOrEqual(6);
  const admin = await adminHeaders(request);
  const CURRENT = '/event/manage/threat-levels/current';
  const used = new Set(
    ((await (await request.get('/event/manage/threat-levels?size=100', { headers: admin })).json()).items as { rank: number }[]).map((l) => l.rank),
  );
  const rank = [...Array(99).keys()].map((i) => i + 1).find((r) => !used.has(r))!;
  const name = `Model ${Date.now().toString(36)}`;
  const made = await request.post('/event/manage/threat-levels', {
    headers: admin,
    data: { name, rank, mode: 'locked', description: null, exemptGroupIds: [] },
  });
  expect(made.status()).toBe(201);
  const levelId = (await made.json()).id as number;
  expect((await request.post(CURRENT, { headers: admin, data: { levelId: null } })).ok()).toBe(true);

  // an operator who controls the doors of one site (Operations and the divisions inside it) only, made as the console's
  // administrator would: a role with door control ticked there, and a group that gives it
  const call = (method: string, path: string, data?: unknown) => apiCall(request, admin, method, path, data);
  const stamp = Date.now().toString(36);
  const divisions = (await call('GET', '/event/manage/divisions?size=500')).items as { id: number; name: string }[];
  const operations = divisions.find((d) => d.name === 'Operations')!;
  const role = await call('POST', '/event/manage/roles', { name: `Site doors ${stamp}`, code: `site-doors-${stamp}` });
  await call('POST', `/event/manage/roles/${role.id}/assign-privileges`, {
    privileges: [
      { code: '0.1', divisionId: null },
      { code: '0.4.5.0', divisionId: operations.id },
      { code: '0.4.5.4', divisionId: operations.id },
    ],
  });
  const username = `site-op-${stamp}`;
  const op = await call('POST', '/event/manage/operators', { username, name: `Site Operator ${stamp}`, password: 'Site-operator-1' });
  await call('POST', '/event/manage/operator-groups', { name: `Site operators ${stamp}`, members: [op.id], grants: [{ roleId: role.id, divisionId: null }] });

  await signIn(page, username, { password: 'Site-operator-1', at: '/configure/doors' });
  const operator = await bearer(page);
  const choices = (await (await request.get(`${CURRENT}/choices`, { headers: operator })).json()) as {
    sites: { id: number; name: string }[];
    wholeClient: boolean;
  };
  expect(choices.wholeClient).toBe(false); // the model's operator controls some sites only
  const site = choices.sites[0];
  const panel = page.getByTestId('doors-threat');
  const dialog = page.getByRole('alertdialog');
  const play: Record<string, () => Promise<unknown>> = {
    'the operator sets the level for their site': async () => {
      await panel.getByTestId('doors-threat-open').click();
      await panel.getByTestId('doors-threat-choose').selectOption({ label: `${rank} · ${name}` });
      await panel.getByTestId('doors-threat-where').selectOption({ label: site.name });
      await panel.getByTestId('doors-threat-set').click();
      await dialog.getByRole('button', { name: 'Set level', exact: true }).click();
    },
    'the operator lowers it': async () => {
      await panel.getByTestId('doors-threat-lower').click();
      await dialog.getByRole('button', { name: 'Lower to none', exact: true }).click();
    },
    'another console sets it for the whole client': async () =>
      expect((await request.post(CURRENT, { headers: admin, data: { levelId, divisionId: null, minutes: null } })).ok()).toBe(true),
    'another console lowers it': async () => expect((await request.post(CURRENT, { headers: admin, data: { levelId: null } })).ok()).toBe(true),
  };
  const count = (id: string) => panel.getByTestId(id).count();
  const shown = async () => ({
    level: (await panel.getByTestId('doors-threat-level').allInnerTexts())[0] ?? null, // never waits for one that went
    none: await count('doors-threat-none'),
    elsewhere: await count('doors-threat-elsewhere'),
    notYours: await count('doors-threat-not-yours'),
    lower: await count('doors-threat-lower'),
    open: await count('doors-threat-open'),
    error: await count('doors-threat-error'),
    held: await page.locator('[data-testid="door-row"][data-held="threat"]').count(),
  });
  const expectScreen = async (at: ModelStep<typeof threatLevelMachine, { held: Held }>, where: string) => {
    const now = selectThreatCurrent(at.snapshot)!;
    const mayChange = selectThreatMayChange(at.snapshot);
    // settled, the level shown is the one in force on the server (a property of the screen, not of the transitions)
    const kind = !now.level ? 'none' : now.divisionId === null ? 'whole' : 'site';
    expect(kind, `${where}: the level shown is the server's`).toBe(at.world.held);
    // the doors the server holds now (its rule); the panel's own parts from the machine's selectors
    // (polled: a step played through the screen returns when its click is done, before the console's request is)
    const heldOnServer = async () =>
      ((await (await request.get('/event/manage/doors', { headers: operator })).json()).items as { heldBy: unknown }[]).filter((d) => d.heldBy).length;
    await expect.poll(async () => (await heldOnServer()) > 0, { message: `${where}: the server holds doors iff a level is in force` }).toBe(now.level !== null);
    const held = await heldOnServer();
    await expect.poll(shown, { message: where }).toEqual({
      level: now.level ? name : null,
      none: now.level ? 0 : 1,
      elsewhere: now.level && now.divisionId !== null ? 1 : 0,
      notYours: now.level && !mayChange ? 1 : 0,
      lower: now.level && mayChange ? 1 : 0,
      open: mayChange ? 1 : 0,
      error: selectThreatError(at.snapshot) ? 1 : 0,
      held,
    });
  };

  const start = consoleStart(threatWorld);
  for (const path of paths) {
    expect((await request.post(CURRENT, { headers: admin, data: { levelId: null } })).ok()).toBe(true);
    await page.goto('/configure/doors');
    await expectScreen(start, `${path.description}, at the start`);
    for (const step of path.steps) {
      await play[step.step]();
      await expectScreen(step, `${path.description}, after "${step.step}"`);
    }
  }
  // left as found: no level in force for the specs after this one on the worker
  expect((await request.post(CURRENT, { headers: admin, data: { levelId: null } })).ok()).toBe(true);
});
