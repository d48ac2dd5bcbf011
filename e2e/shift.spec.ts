// A shift at the console (issue 10): what an operator is told of alarms after signing in or reloading, during a
// flood, and whether the alarm sound is really on.
import { expect as baseExpect, test, type Page } from './fixtures';
import { shot, signIn, go } from './helpers';

// waits on visible facts only; the generous limits are for a shared, heavily loaded machine
const expect = baseExpect.configure({ timeout: 30_000 });
test.setTimeout(240_000);

// A desktop browser's autoplay policy is put in the page by AUTOPLAY_POLICY below: headless chromium plays sound
// without a gesture whatever --autoplay-policy says, so that flag bought nothing but a browser (and a worker with a
// server of its own) for this one file.

async function api(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  return { authorization: `Bearer ${token}` };
}
/** Force alarms through the test hook: `door.forced` is P1, `door.held` P3. Returns the doors' names. */
async function raise(page: Page, kind: 'door.forced' | 'door.held', count: number): Promise<string[]> {
  const headers = await api(page);
  const doors = (await (await page.request.get('/event/manage/doors', { headers })).json()).items as Array<{ id: number; name: string }>;
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const door = doors[i % doors.length];
    const r = await page.request.post('/api/test/simulate', { headers, data: { kind, doorId: door.id } });
    expect(r.ok()).toBe(true);
    names.push(door.name);
  }
  return names;
}
/** Process every open alarm of the client, so each test starts from a quiet console. */
async function processAll(page: Page) {
  const headers = await api(page);
  const open = (await (await page.request.get('/event/manage/alarms', { headers })).json()) as Array<{ id: number }>;
  for (const a of open) await page.request.post(`/event/manage/alarms/${a.id}/process`, { headers, data: { note: 'cleared for the next test' } });
}
async function alarmsLoaded(page: Page, count: number) {
  await go(page, '/monitor/alarms');
  await expect(page.getByTestId('socket-status')).toHaveText(/connected/, { timeout: 30_000 });
  await expect(page.getByTestId('alarm-row')).toHaveCount(count, { timeout: 30_000 });
}

test.describe('alarm notices', () => {
  test('signing in or reloading raises no notice for alarms raised earlier; a new one raises exactly one, sticky for a P1', async ({ page }) => {
    await signIn(page, 'operator');
    await processAll(page);
    await raise(page, 'door.held', 6);
    await raise(page, 'door.forced', 2);
    await page.reload();
    await alarmsLoaded(page, 8);
    await expect(page.getByTestId('alarms-open-count')).toHaveText('8'); // what was open is counted, not toasted

    const [door] = await raise(page, 'door.forced', 1);
    const notice = page.getByTestId('alarm-notice');
    await expect(notice).toHaveCount(1);
    await expect(notice).toHaveAttribute('data-sticky', 'true');
    await expect(notice.getByTestId('alarm-notice-title')).toHaveText(`P1 alarm: ${door}`);
    await expect(page.getByTestId('alarms-open-count')).toHaveText('9');
    await shot(page, 'shift-notice');

    // a fresh sign-in is no different from a reload
    const other = await (await page.context().browser()!.newContext()).newPage();
    await signIn(other, 'operator');
    await alarmsLoaded(other, 9);
    await raise(other, 'door.held', 1);
    await expect(other.getByTestId('alarm-notice')).toHaveCount(1);
    await expect(other.getByTestId('alarm-notice')).toHaveAttribute('data-sticky', 'false');
    await other.context().close();

    // "View" counts as seen: the board clears and the alarms are open
    await page.evaluate(() => {
      history.pushState({}, '', '/dashboard');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByTestId('dashboard')).toBeVisible();
    await notice.first().getByTestId('alarm-notice-open').click(); // the P1, and meanwhile the P3 the other console raised
    await expect(page).toHaveURL(/\/monitor\/alarms$/);
    await expect(page.getByTestId('alarm-notice')).toHaveCount(0);
  });

  test('a flood is one summary in the bottom-right corner, and every alarm button stays clickable', async ({ page }) => {
    await signIn(page, 'operator');
    await processAll(page);
    await alarmsLoaded(page, 0);
    await raise(page, 'door.held', 9);
    await raise(page, 'door.forced', 3);
    const notices = page.getByTestId('alarm-notice');
    await expect(notices.getByTestId('alarm-notice-title')).toHaveText(['12 new alarms, 3 P1']);
    await expect(notices).toHaveAttribute('data-kind', 'summary');
    await expect(page.getByTestId('alarm-row')).toHaveCount(12);

    const board = (await page.getByTestId('alarm-board').boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(board.x + board.width).toBeGreaterThan(viewport.width - 40);
    expect(board.y + board.height).toBeGreaterThan(viewport.height - 40);
    const header = (await page.getByTestId('header').boundingBox())!;
    expect(board.y).toBeGreaterThan(header.y + header.height);
    await shot(page, 'shift-flood');

    // the last row's buttons are reachable: a click on a covered button would fail (another element receives it)
    const last = page.getByTestId('alarm-row').last();
    await last.getByTestId('alarm-acknowledge').click();
    await expect(last).toContainText('Acknowledged');
  });
});

/**
 * Headless chromium plays audio without a gesture whatever --autoplay-policy says, so the page gets a desktop
 * browser's policy for Web Audio: an AudioContext made before the page had a user gesture stays suspended, and
 * resume() is refused until it has had one. The gesture is counted from trusted input (a click or key press, as
 * Playwright's are): headless chromium sets `navigator.userActivation.hasBeenActive` on a tab nobody touched, a while
 * after a navigation, so a context made a little later (the console is fetched after its entry) was "allowed".
 */
const AUTOPLAY_POLICY = () => {
  let gesture = false;
  for (const type of ['pointerdown', 'mousedown', 'keydown', 'touchend'])
    window.addEventListener(
      type,
      (e) => {
        if (e.isTrusted) gesture = true;
      },
      true,
    );
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    private allowed = gesture;
    constructor(options?: AudioContextOptions) {
      super(options);
      if (!this.allowed) void super.suspend();
    }
    get state(): AudioContextState {
      return this.allowed ? super.state : 'suspended';
    }
    resume(): Promise<void> {
      if (!gesture) return Promise.reject(new DOMException('The AudioContext was not allowed to start', 'NotAllowedError'));
      this.allowed = true;
      return super.resume().then(() => {
        this.dispatchEvent(new Event('statechange'));
      });
    }
  };
};

test.describe('alarm sound under the browser autoplay policy', () => {
  test('in a new tab the header says sound is blocked, one click enables it, and a new alarm is heard', async ({ page: signInPage }) => {
    await signIn(signInPage, 'operator');
    await processAll(signInPage);
    // the same session opened in a new tab (or after a restart of the browser): no click has happened there yet
    const page = await signInPage.context().newPage();
    await page.addInitScript(AUTOPLAY_POLICY);
    await go(page, '/dashboard');
    await expect(page.getByTestId('app-shell')).toBeVisible();
    const sound = page.getByTestId('alarm-sound');
    await expect(sound).toHaveAttribute('data-sound', 'blocked');
    await expect(sound).toHaveText('Enable sound');
    await shot(page, 'shift-sound-blocked');
    await raise(page, 'door.held', 1);
    await expect(page.getByTestId('alarm-notice')).toHaveCount(1);
    expect(await page.evaluate(() => (window as any).__gatehouseSound.played())).toBe(0); // blocked, and not pretending

    await sound.click();
    await expect(sound).toHaveAttribute('data-sound', 'on');
    await raise(page, 'door.held', 1);
    await expect.poll(() => page.evaluate(() => (window as any).__gatehouseSound.played())).toBe(1);

    await sound.click(); // mute
    await expect(sound).toHaveAttribute('data-sound', 'muted');
  });
});
