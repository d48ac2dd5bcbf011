// The console at 390×844 (issue 10): alarms and events are cards with their actions in reach, page headers keep
// their title, and the alarm notices never sit on top of the list.
import { expect as baseExpect, test, type Page } from './fixtures';
import { shot, signIn } from './helpers';

// waits on visible facts only; the generous limits are for a shared, heavily loaded machine
const expect = baseExpect.configure({ timeout: 30_000 });
test.setTimeout(240_000);

test.use({ viewport: { width: 390, height: 844 } });

async function raise(page: Page, kinds: Array<'door.forced' | 'door.held'>) {
  const headers = { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('jwt'))}` };
  const doors = (await (await page.request.get('/event/manage/doors', { headers })).json()).items as Array<{ id: number }>;
  for (const [i, kind] of kinds.entries())
    expect((await page.request.post('/api/test/simulate', { headers, data: { kind, doorId: doors[i % doors.length].id } })).ok()).toBe(true);
}
const inViewport = async (page: Page, testId: string) => {
  const box = (await page.getByTestId(testId).first().boundingBox())!;
  return box.x >= 0 && box.x + box.width <= 390;
};

test('alarms are cards whose buttons work, under a notice that covers none of them', async ({ page }) => {
  await signIn(page, 'operator', { at: '/monitor/alarms' });
  await expect(page.getByTestId('socket-status')).toHaveText(/connected/, { timeout: 30_000 });
  await raise(page, ['door.held', 'door.held', 'door.held', 'door.held', 'door.forced']);
  const cards = page.locator('.gh-alarm-card');
  await expect(cards.first()).toBeVisible();
  // they arrive one by one over the live stream: counted once the first was on screen, 4 of 5 were (a CI flake)
  await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(5);
  await expect(page.getByRole('heading', { name: 'Alarms' })).toBeVisible();
  const title = (await page.getByRole('heading', { name: 'Alarms' }).boundingBox())!;
  expect(title.width).toBeGreaterThan(60); // not squeezed away by the header's buttons
  expect(await inViewport(page, 'alarm-sound-screen')).toBe(true);
  // the list does not run off the side
  await expect.poll(() => page.getByTestId('alarms-table').evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);

  // one notice on a phone (the most urgent, with how many more), pinned to the bottom edge
  await expect(page.getByTestId('alarm-notice')).toHaveCount(1);
  await shot(page, 'mobile-alarms');
  const last = cards.last();
  // scrolled to the end of the list, whichever ancestor scrolls
  await last.evaluate((el) => {
    for (let n: Element | null = el; n; n = n.parentElement) n.scrollTop = n.scrollHeight;
  });
  const board = (await page.getByTestId('alarm-board').boundingBox())!;
  const buttons = (await last.locator('.gh-alarm-card__actions').boundingBox())!;
  expect(buttons.y + buttons.height).toBeLessThanOrEqual(board.y); // the last card's buttons are above the notice
  await last.getByTestId('alarm-acknowledge').click();
  await expect(last).toContainText('Acknowledged');
  await last.getByTestId('alarm-process').click();
  await expect(page.getByTestId('alarm-note')).toBeVisible();
});

test('events are cards and the header keeps its title and every action', async ({ page }) => {
  await signIn(page, 'operator', { at: '/monitor/events' });
  await expect(page.getByTestId('socket-status')).toHaveText(/connected/, { timeout: 30_000 });
  await raise(page, ['door.held']);
  const row = page.getByTestId('event-row').first();
  await expect(row).toBeVisible();
  expect(await row.evaluate((el) => getComputedStyle(el).display)).toBe('grid');
  const title = (await page.getByRole('heading', { name: 'Events' }).boundingBox())!;
  expect(title.width).toBeGreaterThan(60);
  for (const id of ['events-pause', 'events-history']) expect(await inViewport(page, id)).toBe(true);
  await expect.poll(() => page.getByTestId('events-table').evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  await shot(page, 'mobile-events');
  await page.getByTestId('events-pause').click();
  await expect(page.getByTestId('events-resume')).toBeVisible();
});

test("an administrator's header keeps every control whole and apart at 390 and 320 px, the client's name giving way", async ({ page }) => {
  await signIn(page, 'admin', { client: 'Northwind Logistics', at: '/configure/doors' });
  await raise(page, ['door.held']); // an alarm count beside the alarms button
  await expect(page.getByTestId('alarms-button')).toContainText(/\d/);
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 844 });
    const header = page.getByTestId('header');
    await expect(header.getByTestId('user-menu')).toBeVisible();
    // each control is inside the screen, no wider inside than its own box, and none lies over the next
    const boxes = await header.evaluate((el) =>
      [...el.children]
        .filter((c) => c.getClientRects().length && getComputedStyle(c).display !== 'none' && c.getBoundingClientRect().width > 0)
        .map((c) => {
          const r = c.getBoundingClientRect();
          const inner = c.matches('button') ? c : (c.querySelector('button') ?? c);
          return {
            what: (c.getAttribute('data-testid') ?? inner.getAttribute('data-testid') ?? c.className).slice(0, 40),
            left: r.left,
            right: r.right,
            spills: inner.scrollWidth > inner.clientWidth + 1,
          };
        }),
    );
    for (const b of boxes) {
      expect(b.left, `${b.what} at ${width}`).toBeGreaterThanOrEqual(0);
      expect(b.right, `${b.what} at ${width}`).toBeLessThanOrEqual(width);
      expect(b.spills, `${b.what} at ${width}: its content runs over its box`).toBe(false);
    }
    for (let i = 1; i < boxes.length; i++)
      expect(boxes[i].left, `${boxes[i].what} over ${boxes[i - 1].what} at ${width}`).toBeGreaterThanOrEqual(boxes[i - 1].right - 0.5);
    // the client is still named to whoever cannot see its name
    await expect(header.getByTestId('client-switcher')).toHaveAccessibleName(/Northwind Logistics/);
  }
  await shot(page, 'mobile-admin-header');
});
