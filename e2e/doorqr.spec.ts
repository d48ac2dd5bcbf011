// Door QR codes (issue 12): an administrator turns QR codes on at a door and shows a credential's current code; the
// code opens the door while it is current, the previous period's does not, and none opens it once turned off.
import { expect, test } from './fixtures';
import type { DoorQrRow } from '../contract';
import { doorQrMachine, selectQrDoors, selectQrError } from '../machines/doorQr';
import { shot, signInTo } from './helpers';
import { consolePaths, consoleStart, type ConsoleWorld, type ModelStep } from './modelPaths';

test('a rotating QR code opens a door only while it is current', async ({ page }) => {
  test.setTimeout(120_000);
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');
  const door = (await (await page.request.get('/event/manage/doors', { headers })).json()).items.find((d: { name: string }) => d.name === 'Server Room');
  // a card the engine lets through this door now
  const granted = await (await page.request.post('/api/test/simulate', { headers, data: { kind: 'card.granted', doorId: door.id } })).json();
  expect(granted.eventCode).toBe(5000);
  const card = /card (\S+)\)/.exec(granted.message)![1];
  const present = async (qr: string) =>
    await (await page.request.post('/api/test/simulate', { headers, data: { kind: 'qr.presented', doorId: door.id, qr } })).json();

  await page.getByTestId('sidebar').getByRole('link', { name: 'Door QR', exact: true }).click();
  const row = page.getByTestId('door-qr-row').filter({ hasText: 'Server Room' });
  const toggle = row.locator('label.bp6-switch'); // click the switch as a person does
  const box = row.locator('input[type="checkbox"]');
  if (await box.isChecked()) {
    // left on by an earlier run: start from off
    await toggle.click();
    await page.getByRole('button', { name: 'Turn off' }).click();
    await expect(box).not.toBeChecked();
  }
  await toggle.click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Server Room takes QR codes now' }).first()).toBeVisible();
  await expect(box).toBeChecked();

  await row.getByTestId('door-qr-show').click();
  const panel = page.getByTestId('door-qr-panel');
  await panel.getByLabel('Credential number').fill('NOPE-1');
  await panel.getByTestId('door-qr-ask').click();
  await expect(panel.getByTestId('door-qr-problem')).toContainText('Credential is not a credential of this client');
  await panel.getByLabel('Credential number').fill(card);
  await panel.getByTestId('door-qr-ask').click();
  const shown = panel.getByTestId('door-qr-code');
  await expect(shown.locator('img')).toBeVisible();
  await expect(panel.getByTestId('door-qr-valid')).toContainText('Current until');
  await shot(page, 'door-qr-1440');
  // a code about to roll over would race the next step: wait for the next one
  const left = Number(/\((\d+) s\)/.exec(await panel.getByTestId('door-qr-valid').innerText())![1]);
  const first = await shown.getAttribute('data-code');
  if (left < 4) await expect(shown).not.toHaveAttribute('data-code', first!, { timeout: 10_000 });
  const code = (await shown.getAttribute('data-code'))!;
  expect(code).toMatch(/^GHQ\./);
  expect((await present(code)).eventCode).toBe(5000);

  const old = await (
    await page.request.get(`/event/manage/doors/${door.id}/qr/code?credential=${card}&at=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`, {
      headers,
    })
  ).json();
  expect((await present(old.code)).eventCode).toBe(5012);

  // a new secret made elsewhere (another operator, the API): the server announces it on /dynamic-qr and the open
  // panel draws the new code at once, long before the period's end would have renewed it
  const leftNow = Number(/\((\d+) s\)/.exec(await panel.getByTestId('door-qr-valid').innerText())![1]);
  if (leftNow < 10) await expect(shown).not.toHaveAttribute('data-code', code, { timeout: 15_000 });
  const current = (await shown.getAttribute('data-code'))!;
  expect((await page.request.post(`/event/manage/doors/${door.id}/qr`, { headers, data: { on: true } })).ok()).toBe(true);
  await expect(shown).not.toHaveAttribute('data-code', current, { timeout: 5_000 });
  const renewed = (await shown.getAttribute('data-code'))!;
  expect((await present(current)).eventCode).toBe(5012);
  expect((await present(renewed)).eventCode).toBe(5000);

  await page.keyboard.press('Escape');
  await toggle.click();
  await page.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Server Room takes no QR codes now' }).first()).toBeVisible();
  expect((await present(code)).eventCode).toBe(5012);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'door-qr-390');
});

// Issue 51: the door QR list driven along the paths of its own machine's graph (e2e/modelPaths.ts): machines/doorQr.ts
// joined to the server's QR setting of two doors; each edge between two settled states (a door's QR turned on, or
// off after the confirmation) is played from a fresh screen, and after every step each row shows what the machine's
// list says of it, all at one moment.
type Qr = { a: boolean; b: boolean };
const QR_DOORS = { a: 1, b: 2 } as const;
const qrRow = (id: number, on: boolean): DoorQrRow => ({ id, name: `door ${id}`, divisionName: null, qr: on }) as DoorQrRow;
const qrWorld: ConsoleWorld<typeof doorQrMachine, Qr> = {
  machine: doorQrMachine,
  world: { a: false, b: false },
  answer: (id, s, world) => {
    if (id === 'list') return { output: { items: [qrRow(QR_DOORS.a, world.a), qrRow(QR_DOORS.b, world.b)] }, world };
    const asked = s.context.turning!;
    return { output: null, world: { ...world, [asked.id === QR_DOORS.a ? 'a' : 'b']: asked.on } };
  },
  steps: {
    'turn the first door on': () => ({ event: { type: 'doorQr.turn', id: QR_DOORS.a, on: true } }),
    'turn the first door off': () => ({ event: { type: 'doorQr.turn', id: QR_DOORS.a, on: false } }),
    'turn the second door on': () => ({ event: { type: 'doorQr.turn', id: QR_DOORS.b, on: true } }),
    'turn the second door off': () => ({ event: { type: 'doorQr.turn', id: QR_DOORS.b, on: false } }),
  },
  serialize: (s, w) => JSON.stringify([s.value, w, (selectQrDoors(s) ?? []).map((d) => d.qr), selectQrError(s) !== null]),
};

test("the door QR list along every edge of its machine's graph shows what the machine's list says", async ({ page }) => {
  test.setTimeout(180_000);
  const paths = consolePaths(qrWorld);
  // four settled states (each door on or off), two doors to turn in each: eight edges, each turning a door either way
  expect(paths.filter((p) => p.steps.at(-1)!.step.endsWith(' on')).length).toBe(4);
  expect(paths.filter((p) => p.steps.at(-1)!.step.endsWith(' off')).length).toBe(4);
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');
  const all = (await (await page.request.get('/event/manage/doors/qr', { headers })).json()).items as { id: number; name: string }[];
  const real = { a: all.find((d) => d.name === 'Server Room')!, b: all.find((d) => d.name === 'Loading Bay')! };
  const set = async (id: number, on: boolean) => expect((await page.request.post(`/event/manage/doors/${id}/qr`, { headers, data: { on } })).ok()).toBe(true);
  const rowOf = (name: string) => page.getByTestId('door-qr-row').filter({ has: page.getByText(name, { exact: true }) });
  const turn = (door: 'a' | 'b', on: boolean) => async () => {
    await rowOf(real[door].name).locator('label.bp6-switch').click();
    if (!on) await page.getByRole('button', { name: 'Turn off' }).click();
  };
  const play: Record<string, () => Promise<void>> = {
    'turn the first door on': turn('a', true),
    'turn the first door off': turn('a', false),
    'turn the second door on': turn('b', true),
    'turn the second door off': turn('b', false),
  };
  const shown = async () =>
    Promise.all(
      (['a', 'b'] as const).map(async (door) => {
        const row = rowOf(real[door].name);
        return { checked: await row.locator('input[type="checkbox"]').isChecked(), show: await row.getByTestId('door-qr-show').count() };
      }),
    );
  const expectScreen = async (at: ModelStep<typeof doorQrMachine, Qr>, where: string) => {
    const doors = selectQrDoors(at.snapshot)!;
    const model = [QR_DOORS.a, QR_DOORS.b].map((id) => doors.find((d) => d.id === id)!.qr);
    // settled, the machine's list is what the server holds (a property of the screen, not of the machine's transitions)
    expect(model, `${where}: the list shown is the server's`).toEqual([at.world.a, at.world.b]);
    // the rows show the machine's list (the list is read again after each answer), then the server agrees with the world
    await expect.poll(shown, { message: where }).toEqual(model.map((on) => ({ checked: on, show: on ? 1 : 0 })));
    const now = (await (await page.request.get('/event/manage/doors/qr', { headers })).json()).items as { id: number; qr: boolean }[];
    expect(
      [real.a, real.b].map((d) => now.find((x) => x.id === d.id)!.qr),
      where,
    ).toEqual([at.world.a, at.world.b]);
    expect(selectQrError(at.snapshot)).toBeNull();
  };
  const start = consoleStart(qrWorld);
  for (const path of paths) {
    await set(real.a.id, false);
    await set(real.b.id, false);
    await page.goto('/configure/door-qr');
    await expectScreen(start, `${path.description}, at the start`);
    for (const step of path.steps) {
      await play[step.step]();
      await expectScreen(step, `${path.description}, after "${step.step}"`);
    }
  }
  await set(real.a.id, false);
  await set(real.b.id, false);
});
