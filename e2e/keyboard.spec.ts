// Issue 32, keyboard alone (WCAG 2.1 2.1.1 keyboard, 2.4.3 focus order, 2.4.7 focus visible): the control room's and
// the front desk's daily work done with Tab, Shift+Tab, Enter, Space and Escape only. No click, no fill: a field is
// reached by Tab and typed into with the keyboard. At every stop the focused element must show its focus (an outline
// or a focus ring, while the browser says it has keyboard focus). Two tests, one sign-in each (CI time): the operator
// processes an alarm and opens a door, the receptionist registers a visitor (refused first) and signs them in.
// The control room's test also takes the skip link and hears the alarms' assertive and polite announcements.
import { expect, test, type Page } from './fixtures';
import { PASSWORD } from './helpers';
import { API } from '../contract';

/** What the focused element shows: an outline or a focus ring, while the browser says it has keyboard focus. */
async function focusShown(page: Page): Promise<{ where: string; shown: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { where: 'body', shown: false };
    // a Blueprint checkbox or switch hides its input and draws the focus on the indicator beside it
    const drawn = (el.matches('.bp6-control input') ? el.nextElementSibling : el) as HTMLElement;
    const s = getComputedStyle(drawn);
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
    const ring = s.boxShadow !== 'none';
    const where = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
    return { where, shown: (outline || ring) && el.matches(':focus-visible') };
  });
}

/** The focused element shows its focus (checked where a key, not Tab, moved it). */
async function expectFocusShown(page: Page) {
  const focus = await focusShown(page);
  expect(focus.shown, `focus is not visible on ${focus.where}`).toBe(true);
}

const isFocused = (page: Page, selector: string) => page.evaluate((sel) => !!document.activeElement?.matches(sel), selector);

/**
 * Tab (or Shift+Tab) until the focused element matches `selector`, checking at every stop that focus shows. At most one
 * round of the page: as many presses as it has elements that can take the focus, and a few for the browser's own
 * stops. (A fixed 150 was too few for Shift+Tab from the alarms up to the sidebar when earlier specs on the same
 * server had left many open alarms, each row with four buttons: the CI run's flaky test.)
 */
async function tabTo(page: Page, selector: string, { back = false } = {}) {
  const max =
    (await page.evaluate(
      () =>
        document.querySelectorAll(
          'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])',
        ).length,
    )) + 10;
  const hidden: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const focus = await focusShown(page);
    // (body: nothing has focus, as when the focus leaves the page for the browser's own controls)
    if (!focus.shown && focus.where !== 'body') hidden.push(focus.where);
    if (await isFocused(page, selector)) {
      expect(hidden, `focus was not visible on: ${hidden.join(', ')}`).toEqual([]);
      return;
    }
  }
  throw new Error(`${selector} was not reached in ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}`);
}

/** Tabs to a field and types into it. */
async function typeInto(page: Page, selector: string, text: string, opts?: { back?: boolean }) {
  await tabTo(page, selector, opts);
  await page.keyboard.type(text);
}

/** Signs in with the keyboard (the username field has the focus when the page opens) and stops a guided tour with Escape. */
async function signInByKeyboard(page: Page, username: string) {
  await page.goto('/login');
  await expect.poll(() => isFocused(page, '#username')).toBe(true);
  await page.keyboard.type(username);
  await page.keyboard.press('Tab');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('app-shell')).toBeVisible();
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
  if (await page.getByTestId('tour-skip').isVisible()) {
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('tour-skip')).toBeHidden();
  }
}

/** Opens a screen from the sidebar: Tab to its link, Enter. */
async function openFromSidebar(page: Page, path: string, { back = false } = {}) {
  await tabTo(page, `[data-testid="sidebar"] a[href="${path}"]`, { back });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[/.]/g, '\\$&')}$`));
  await expect(page.locator('[data-testid="view"]:visible [aria-busy="true"]')).toHaveCount(0);
}

// the two tests share nothing: on several workers they run side by side, each against its worker's server
test.describe.configure({ mode: 'parallel' });

const headersOf = async (page: Page) => ({ authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('jwt'))}` });

test('keyboard alone, the control room: sign in, the sidebar, the alarm sound, acknowledge and process an alarm with a note, open a door briefly', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInByKeyboard(page, 'operator');
  // the first stop is the skip link, shown on screen when it has the focus; then the menu
  await page.locator('body').focus();
  await tabTo(page, '[data-testid="skip-link"]');
  await expect(page.getByTestId('skip-link')).toBeInViewport();
  await openFromSidebar(page, '/monitor/alarms');
  await expect(page.getByTestId('socket-status')).toHaveText(/connected/);
  // the alarm sound has a visible control that says its state in words, and its name starts with them (2.5.3)
  const sound = page.locator('[data-testid="view"]:visible [data-testid="alarm-sound-screen"]');
  await expect(sound).toBeVisible();
  const shown = (await sound.innerText()).trim();
  expect(shown).toMatch(/^(Sound on|Sound off|Enable sound|No sound)$/);
  await expect(sound).toHaveAccessibleName(new RegExp(`^${shown}: .*sound`, 'i'));
  // the screen's control stands in for the header's there: one control, not two side by side
  await expect(page.getByTestId('alarm-sound')).toHaveCount(0);

  // (arranged through the API: a forced door raises the alarm, priority 1, said in the assertive live region)
  const headers = await headersOf(page);
  const door = (await (await page.request.get('/event/manage/doors', { headers })).json()).items.find((d: { name: string }) => d.name === 'Server Room');
  expect((await page.request.post('/api/test/simulate', { headers, data: { kind: 'door.forced', doorId: door.id } })).ok()).toBe(true);
  await expect(page.getByTestId('alarm-announcer-assertive')).toContainText('Server Room');
  await expect(page.getByTestId('alarm-announcer-assertive')).toHaveAttribute('aria-live', 'assertive');
  await expect(page.getByTestId('alarm-announcer-polite')).toHaveText('');
  // back up to the skip link, and with Enter into the view
  await tabTo(page, '[data-testid="skip-link"]', { back: true });
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('gh-main');
  const rows = page.locator('[data-testid="view"]:visible [data-testid="alarm-row"]').filter({ hasText: 'Server Room' });
  await expect(rows.first()).toBeVisible();
  const id = Math.max(...(await rows.evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-alarm-id'))))));
  const row = `[data-testid="view"] [data-alarm-id="${id}"]`;

  await tabTo(page, `${row} [data-testid="alarm-acknowledge"]`);
  await page.keyboard.press('Enter');
  await expect(page.locator(`${row}:visible`)).toContainText('Acknowledged');
  // on to Process… (Space presses a button as Enter does)
  await tabTo(page, `${row} [data-testid="alarm-process"]`);
  await page.keyboard.press('Space');
  // the dialog opens with the focus in its note, which shows it
  await expect.poll(() => isFocused(page, '[data-testid="alarm-note"]')).toBe(true);
  await expectFocusShown(page);
  await page.keyboard.type('Door checked by the guard on duty: closed and locked again.');
  await expect(page.getByTestId('alarm-note-counter')).toHaveText('59 / 1,000');
  await tabTo(page, '[data-testid="alarm-process-submit"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('alarm-note')).toBeHidden();
  await expect(page.locator(`${row}:visible`)).toHaveCount(0);
  // the server has it processed: no longer among the open alarms
  const open = await (await page.request.get(API.alarms, { headers })).json();
  expect((Array.isArray(open) ? open : open.items).map((x: { id: number }) => x.id)).not.toContain(id);
  // a door held open (priority 3) is said politely
  expect((await page.request.post('/api/test/simulate', { headers, data: { kind: 'door.held', doorId: door.id } })).ok()).toBe(true);
  await expect(page.getByTestId('alarm-announcer-polite')).toContainText('Server Room');
  await expect(page.getByTestId('alarm-announcer-polite')).toHaveAttribute('aria-live', 'polite');

  // back up to the sidebar, to Doors, and Open briefly on the Main Entrance: the focus stays in the row, shown
  // (Main Entrance is locked first through the API: a spec before this one on the same worker's server may have left
  // it unlocked, where Open briefly is not offered; the retry's fresh server hid that)
  const entranceDoor = (await (await page.request.get('/event/manage/doors', { headers })).json()).items.find(
    (d: { name: string }) => d.name === 'Main Entrance',
  );
  expect((await page.request.post(`/event/manage/doors/${entranceDoor.id}/commands`, { headers, data: { command: 'lock', force: true } })).ok()).toBe(true);
  await openFromSidebar(page, '/configure/doors', { back: true });
  const entrance = '[data-testid="view"] [data-testid="door-row"][aria-label="Main Entrance"]';
  await expect(page.locator(`${entrance}:visible [data-testid="door-state"]`)).toBeVisible();
  await tabTo(page, `${entrance} [data-testid="door-momentary-unlock"]`);
  await page.keyboard.press('Enter');
  await expect(page.locator(`${entrance}:visible [data-testid="door-state"]`)).toHaveText(/briefly/i);
  await expect.poll(() => isFocused(page, `${entrance} button`)).toBe(true);
  await expectFocusShown(page);
});

test('keyboard alone, the front desk: a refused registration puts the focus on the field in error, which the keyboard fills and saves; the visitor is signed in', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInByKeyboard(page, 'reception');
  await tabTo(page, 'a[href="/visitor/register"]');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/visitor\/register$/);
  const form = '[data-testid="view"] [data-testid="visitors-form"]';
  await expect(page.locator(`${form}:visible`)).toBeVisible();
  // the last name only, then save: refused, the focus on the first field in error (First name), visible
  await typeInto(page, `${form} input[name="lastName"]`, 'Tabbed');
  await tabTo(page, `${form} [data-testid="form-save"]`);
  await page.keyboard.press('Enter');
  await expect.poll(() => isFocused(page, `${form} input[name="firstName"]`)).toBe(true);
  await expectFocusShown(page);
  await expect(page.locator(`${form}:visible`)).toContainText('First name is required');
  await page.keyboard.type('Fixed');
  // the next field in error is reached by Tab, and Enter in a field saves
  await typeInto(page, `${form} input[name="hostName"]`, 'Rita Reception');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/visitor\/details\/\d+$/);
  await expect(page.getByRole('heading', { name: 'Fixed Tabbed' })).toBeVisible();
  await expect(page.getByTestId('visitor-status')).toHaveText('Expected');
  await tabTo(page, '[data-testid="view"] [data-testid="visitor-sign-in"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('visitor-status')).toHaveText('On site');
});
