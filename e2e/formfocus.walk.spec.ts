// Issue 29: on every form of the console a save that is refused puts the focus on the first field with an error, in
// the order the fields are on screen, and every field in error says so under itself, naming it (WCAG 2.1 3.3.1 error
// identification, 3.3.3 error suggestion, 2.4.3 focus order). One walk of the route table in one page, signed in once
// as the administrator of Northwind Logistics, each screen opened inside the running console (no page load): every
// screen of the table that shows a form with a save button (the generated add, edit and settings forms and the
// hand-made ones: operator settings, batch add of visitor credentials, register visitor, …), each edit form on a real
// record (a catalogue resource's first record by its API, the others through the links of the screens walked).
// A form with a required typed field is saved emptied; one without is saved with bad values (a letter in a number, a
// word in an e-mail or a date, a text far past any length), so the walk never stores an emptied setting. Either way the
// save must be refused with the focus on the first field in error; a form of choices alone (switches, pickers, selects
// that hold one of their values), which no keyboard can give a bad value, is not saved. The save is clicked with the
// mouse, as most people do: a press on Save that moved the button away from under the pointer (a message appearing
// as the field lost the focus) lost the click on four forms (src/ui/FocusForm.tsx keeps the focus in the field).
import { expect, test, type Page } from './fixtures';
import { SETTLED_AND_WHOLE, watchConsole, type Problem } from './console.helpers';
import { bearer, requestsSettled, signIn } from './helpers';
import { ROUTES } from '../src/app/routeTable';
import { CATALOGUE, routeRows } from '../contract';

const WALKED = ROUTES.filter((r) => r.layout && r.redirect?.kind !== 'always' && r.type === 'PRIVATE');
const PLAIN = WALKED.filter((r) => !r.path.includes(':'));
const WITH_PARAMS = WALKED.filter((r) => r.path.includes(':'));
const asPattern = (path: string) => new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/:[A-Za-z]+/g, '[^/?#]+')}$`);

// (no `test.use({ trace: 'off' })`: a worker's option, it gave this walk a worker, a browser and a server of its own)

const view = (path: string) => `[data-testid="view"][data-view-path="${path}"]`;

/**
 * Opens `path` inside the running console (the router follows history) and waits until it has settled: at this address
 * (else false: not the administrator's), its view shown, no visible view busy (aria-busy, a skeleton), no Access
 * denied and no error boundary. Waited for in the page at every frame (one call; locator assertions polled from here
 * check at 0, 100, 250, 500 ms, …); a screen that does not settle in time is asked again by those assertions, which
 * say what is missing.
 */
async function open(page: Page, path: string): Promise<boolean> {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  let state = await settledIn(page, path);
  if (state === 'settled') {
    // a form drawn once its data came shows no busy mark meanwhile on every screen (shift settings, the floor plan
    // monitor's settings): settled also means no request of the console's on its way, and then drawn (two frames)
    await requestsSettled(page);
    await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
    state = await settledIn(page, path);
  }
  if (state === 'elsewhere') return false;
  if (state === 'settled') return true;
  // not settled in time, or refused or broken: the same conditions one by one, each failing with its own message
  await expect(page.getByTestId('app-shell').or(page.getByTestId('forbidden'))).toBeVisible();
  if (new URL(page.url()).pathname !== path) return false;
  await expect(page.locator(view(path))).toBeVisible();
  await expect(page.locator(SETTLED_AND_WHOLE)).toHaveCount(0);
  await expect(page.locator(`${view(path)} .bp6-skeleton`)).toHaveCount(0);
  return true;
}

/** Where the console is once `path` was asked for, looked at in the page every frame; null when not settled in 20 s. */
async function settledIn(page: Page, path: string): Promise<'elsewhere' | 'broken' | 'settled' | null> {
  return page
    .waitForFunction(
      (p) => {
        // visible as Playwright means it: rendered (not display:none nor visibility:hidden) with a box
        const shown = (el: Element | null) => !!el && el.checkVisibility({ visibilityProperty: true }) && el.getClientRects().length > 0;
        if (!shown(document.querySelector('[data-testid="app-shell"]')) && !shown(document.querySelector('[data-testid="forbidden"]'))) return false;
        if (location.pathname !== p) return 'elsewhere';
        if (document.querySelector('[data-testid="forbidden"], [data-testid="error-boundary"]')) return 'broken';
        const view = document.querySelector(`[data-testid="view"][data-view-path="${p}"]`);
        if (!shown(view) || view!.querySelector('.bp6-skeleton')) return false;
        const views = Array.from(document.querySelectorAll('[data-testid="view"]')).filter(shown);
        return views.some((v) => v.querySelector('[aria-busy="true"]')) ? false : 'settled';
      },
      path,
      { polling: 'raf', timeout: 20_000 },
    )
    .then((h) => h.jsonValue() as Promise<'elsewhere' | 'broken' | 'settled'>)
    .catch(() => null);
}

/** The form of the view that has a save button (the one the walk saves). */
const formOf = (path: string) => `${view(path)} form:has([data-testid="form-save"])`;

/**
 * What a save came to, once it came to something: fields in error, a refusal said above the fields, or saved (a toast,
 * or the form left). Looked at in the page at every frame: polled from here (expect.poll: after 100, 250, 500 ms, then
 * every second) a refusal drawn a moment after a look waited for the next.
 */
async function outcome(page: Page, path: string): Promise<'invalid' | 'refused' | 'saved'> {
  const handle = await page.waitForFunction(
    ([p, form]) => {
      if (location.pathname !== p) return 'saved';
      const f = document.querySelector(form);
      if (f?.querySelector('.bp6-form-group.bp6-intent-danger')) return 'invalid';
      if (f?.querySelector('[data-testid="form-error"], [data-testid="form-violations"]')) return 'refused';
      if (document.querySelector('.bp6-toast.bp6-intent-success')) return 'saved';
      return false;
    },
    [path, formOf(path)] as const,
    { polling: 'raf', timeout: 20_000 },
  );
  return (await handle.jsonValue()) as 'invalid' | 'refused' | 'saved';
}

/**
 * The fields in error, in document order, each with its label and message, and where the focus is: on the first
 * field in error means inside its form group (a picker's button, a switch, a date's input all count).
 */
async function errorsShown(page: Page, path: string) {
  return page.locator(formOf(path)).evaluate((form) => {
    const groups = Array.from(form.querySelectorAll('.bp6-form-group.bp6-intent-danger'));
    const active = document.activeElement;
    const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s*\*\s*$/, '').trim();
    return {
      fields: groups.map((g) => ({
        label: text(g.querySelector(':scope > label')) || text(g.querySelector('.bp6-control')),
        message: text(g.querySelector('.bp6-form-helper-text')),
      })),
      focusInFirst: !!active && !!groups[0]?.contains(active) && active !== groups[0],
      focused: active ? `${active.tagName.toLowerCase()}#${active.id} in "${text(active.closest('.bp6-form-group')?.querySelector('label'))}"` : 'nothing',
      // a control said to be invalid outside any group in error would be a field with no message of its own
      orphans: Array.from(form.querySelectorAll('[aria-invalid="true"]'))
        .filter((c) => !c.closest('.bp6-form-group.bp6-intent-danger'))
        .map((c) => c.id || c.getAttribute('name') || c.tagName),
    };
  });
}

/** The controls that hold typed text (a picker's search box holds none of the form's values). */
const TYPED =
  'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=file]):not([readonly]):not(.bp6-input-ghost):enabled:visible, textarea:not([readonly]):enabled:visible';

/** Every text the form's fields hold taken out, every select without a required choice set to none. */
async function empty(page: Page, path: string) {
  const form = page.locator(formOf(path));
  const typed = form.locator(TYPED);
  for (const el of await typed.all()) await el.fill('');
  for (const sel of await form.locator('select:enabled:visible').all()) {
    if (await sel.locator('option[value=""]').count()) await sel.selectOption('');
  }
}

/** A value each field of its kind refuses: a letter in a number, a word in an e-mail or a date, a text past any limit. */
async function bad(page: Page, path: string) {
  const form = page.locator(formOf(path));
  const typed = form.locator(TYPED);
  for (const el of await typed.all()) {
    const kind = await el.evaluate((e) =>
      (e as HTMLInputElement).inputMode === 'numeric' || (e as HTMLInputElement).type === 'number'
        ? 'number'
        : (e as HTMLInputElement).type === 'email'
          ? 'email'
          : (e as HTMLInputElement).type === 'date' || /date/i.test((e as HTMLInputElement).placeholder)
            ? 'date'
            : 'text',
    );
    await el.fill(kind === 'number' ? '12x' : kind === 'email' ? 'not an address' : kind === 'date' ? 'someday' : 'x'.repeat(5000));
  }
}

/** Saves the form and waits for what it comes to. */
async function save(page: Page, path: string) {
  await page.locator(formOf(path)).locator('[data-testid="form-save"]').click({ timeout: 20_000 });
  return outcome(page, path).catch((e: Error) => {
    throw new Error(`${path}: the save came to nothing (${e.message.split('\n')[0]})`);
  });
}

/** Whether a field the keyboard types into is marked required (then the form is saved emptied, else with bad values). */
const requiresTyping = (page: Page, path: string) =>
  page
    .locator(formOf(path))
    .evaluate((form) =>
      Array.from(
        form.querySelectorAll<HTMLInputElement>('input[aria-required="true"], textarea[aria-required="true"], input[required], textarea[required]'),
      ).some((el) => !el.disabled && !el.readOnly && el.type !== 'checkbox' && el.type !== 'radio' && el.getClientRects().length > 0),
    );

/**
 * Saves `path` emptied when a typed field is required, else with bad values (so a walk never stores an emptied
 * setting that later specs of this worker read); returns what was wrong (nothing: all as promised).
 */
async function check(page: Page, path: string, where: string): Promise<string[]> {
  const problems: string[] = [];
  let how: string;
  if (await requiresTyping(page, path)) {
    await empty(page, path);
    how = 'emptied';
  } else if (await page.locator(formOf(path)).locator(TYPED).count()) {
    await bad(page, path);
    how = 'with bad values';
  } else {
    // a form of choices only (switches, pickers, a required select: nothing typed) has no bad value to be given
    test.info().annotations.push({ type: 'form of choices only', description: where });
    return [];
  }
  const result = await save(page, path);
  if (result !== 'invalid') {
    if (process.env.FORMFOCUS_VERBOSE) console.log(`${where}: saved ${how}: ${result}`);
    return [`${where}: saved ${how}, ${result === 'saved' ? 'and it was taken' : 'refused with no field in error'}`];
  }
  // the form's own checks move the focus in the same task as the save; the server's violations when they have been
  // drawn (an effect of the render that shows them), so the focus is waited for, up to the default expect timeout
  let shown = await errorsShown(page, path);
  if (!shown.focusInFirst)
    await expect
      .poll(async () => (shown = await errorsShown(page, path)).focusInFirst)
      .toBe(true)
      .catch(() => undefined);
  if (!shown.focusInFirst) problems.push(`${where} (${how}): the focus is on ${shown.focused}, not on the first field in error "${shown.fields[0]?.label}"`);
  for (const f of shown.fields) {
    if (!f.message) problems.push(`${where} (${how}): "${f.label}" is in error with no message`);
    else if (f.label && !f.message.toLowerCase().includes(f.label.toLowerCase()))
      problems.push(`${where} (${how}): "${f.label}" says "${f.message}", which does not name it`);
  }
  if (shown.orphans.length) problems.push(`${where} (${how}): marked invalid with no message of their own: ${shown.orphans.join(', ')}`);
  test.info().annotations.push({ type: 'form', description: `${where} ${how}: ${shown.fields.map((f) => f.label).join(', ')}` });
  if (process.env.FORMFOCUS_VERBOSE)
    console.log(`${where} ${how}: ${shown.fields.map((f) => `${f.label} [${f.message}]`).join(', ')}${problems.length ? `\n  ${problems.join('\n  ')}` : ''}`);
  return problems;
}

test('every form of the route table: a refused save focuses the first field in error and every field in error says why', async ({ page }) => {
  // one test, one page, one sign-in: every form is opened inside the running console (about 60 s on a quiet machine)
  test.setTimeout(6 * 60_000);
  const broken: Problem[] = [];
  watchConsole(page, broken, () => 'admin');
  await signIn(page, 'admin', { client: 'Northwind Logistics', at: PLAIN[0].path });
  const problems: string[] = [];
  const found = new Map<string, string>();
  // a catalogue resource's edit form opens on its first record, asked of its API (its list screen is not opened: a
  // list has no form, and 35 lists cost a tenth of the walk); the other parameter routes are found by the links of
  // the screens the walk opens (clients, identities, web hooks, …)
  const headers = await bearer(page);
  for (const res of CATALOGUE) {
    const edit = routeRows(res).find((x) => x.kind === 'edit');
    if (!edit || !WITH_PARAMS.some((r) => r.path === edit.path)) continue;
    const answer = await page.request.get(`${res.api}?size=1`, { headers });
    if (!answer.ok()) {
      if (process.env.FORMFOCUS_VERBOSE) console.log(`${res.api}: ${answer.status()}`);
      continue;
    } // not the administrator's to read in this client
    const body = await answer.json();
    const first = (Array.isArray(body) ? body : (body.items ?? []))[0] as { id?: number } | undefined;
    if (first?.id !== undefined) found.set(edit.path, edit.path.replace(':id', String(first.id)));
    if (process.env.FORMFOCUS_VERBOSE) console.log(`${res.api}: ${answer.status()} ${first?.id ?? 'no record'}`);
  }
  let forms = 0;
  const started = Date.now();
  const took = (what: string, since: number) => {
    if (process.env.FORMFOCUS_VERBOSE) console.log(`${Date.now() - since} ms ${what}`);
  };
  for (const route of PLAIN.filter((r) => r.screen !== 'catalogueList')) {
    const t0 = Date.now();
    if (!(await open(page, route.path))) continue;
    took(`open ${route.path}`, t0);
    // links to parameter routes (edit/{id}) of the table: the first of each
    for (const href of await page.locator(`${view(route.path)} a[href]`).evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))) {
      const path = href.split(/[?#]/)[0];
      const r = WITH_PARAMS.find((x) => asPattern(x.path).test(path));
      if (r && !found.has(r.path)) found.set(r.path, path);
    }
    if (!(await page.locator(formOf(route.path)).count())) continue;
    forms++;
    problems.push(...(await check(page, route.path, route.path)));
  }
  for (const route of WITH_PARAMS.filter((r) => found.has(r.path))) {
    const path = found.get(route.path)!;
    if (!(await open(page, path)) || !(await page.locator(formOf(path)).count())) continue;
    forms++;
    problems.push(...(await check(page, path, `${path} (${route.path})`)));
  }
  took('the walk', started);
  test.info().annotations.push({ type: 'forms', description: String(forms) });
  expect(forms).toBeGreaterThan(60);
  expect(problems, `${problems.length} forms broke the promise:\n${problems.join('\n')}`).toEqual([]);
  // a refused save is a 400 the console expects; anything else (a 500, a page error) is not
  expect(
    broken.filter((p) => !/^400 /.test(p.what)),
    broken.map((p) => `${p.where}: ${p.what}`).join('\n'),
  ).toEqual([]);
});
