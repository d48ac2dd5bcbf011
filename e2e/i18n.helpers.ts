// What is English in the console's chrome once it speaks Chinese: the lines of visible chrome text that are exactly an
// English value of our own message tables (data values such as names are allowed). Used by the zh-CN language spec and
// by the route walk (e2e/a11y.spec.ts), which checks every sidebar screen in zh-CN as it checks its accessibility.
import { expect as baseExpect, type Page } from './fixtures';
import { en as common } from '../src/i18n/common';
import { zhText } from '../src/i18n/text';
import { enRoutes } from '../src/app/routeWords';
import { enCatalogue } from '../src/i18n/catalogue';

const expect = baseExpect.configure({ timeout: 15_000 });

/** Product names and codes that read the same in both languages. */
const ALLOWED = new Set(['Gatehouse']);
const ENGLISH = new Set(
  [...Object.values(common), ...Object.keys(zhText), ...Object.values(enRoutes()), ...Object.values(enCatalogue())].filter(
    (s) => /[A-Za-z]{2}/.test(s) && !/\{\w+\}/.test(s) && !ALLOWED.has(s),
  ),
);
const CHROME = [
  '[data-testid="header"]',
  '[data-testid="sidebar"]',
  '[data-testid="tabs-bar"]',
  '.gh-page-header',
  '.gh-view button',
  '.gh-view th',
  '.gh-view .bp6-table-column-name',
  '.gh-view label',
  '.gh-view .bp6-form-group',
  '.gh-view h3',
  '.gh-view h4',
  '.gh-view h5',
  '.gh-view .bp6-non-ideal-state',
].join(', ');

/** What the chrome says without showing it: a tooltip (`title`), a name for assistive technology, a field's hint. */
const SAID = ['title', 'aria-label', 'placeholder'];
const SAYING = ['[data-testid="header"]', '[data-testid="sidebar"]', '[data-testid="tabs-bar"]', '[data-testid="view"]']
  .flatMap((area) => SAID.map((a) => `${area} [${a}]`))
  .join(', ');

/** The visible chrome's lines of text, and the words its visible elements say in a tooltip, a label or a hint (the
 *  doors' state said "Live" in its tooltip in a zh-CN console, which no look at the text could see). */
async function chromeLines(page: Page): Promise<string[]> {
  const [shown, said] = await Promise.all([
    page.locator(CHROME).evaluateAll((els) =>
      els
        .filter((e) => (e as HTMLElement).offsetParent !== null)
        .flatMap((e) => (e as HTMLElement).innerText.split('\n'))
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    page.locator(SAYING).evaluateAll(
      (els, names) =>
        els
          // a row's or a table's name is its data (a schedule's name on its row), as a data cell's text is
          .filter(
            (e) => (e as HTMLElement).offsetParent !== null && !e.matches('table, tr, td, [role="table"], [role="row"], [role="cell"], [role="gridcell"]'),
          )
          // an attribute repeating the element's own text (a cut-off name's tooltip) says nothing more: the text is
          // looked at as chrome, or is data
          .flatMap((e) => names.map((n) => e.getAttribute(n)?.trim() ?? '').filter((v) => v !== (e as HTMLElement).innerText.trim()))
          .filter(Boolean),
      SAID,
    ),
  ]);
  return [...shown, ...said];
}

/** Lines of chrome text that are exactly an English value of the message tables. */
function english(lines: string[]): string[] {
  return [...new Set(lines.filter((l) => ENGLISH.has(l) || ENGLISH.has(l.replace(/\s*\*$/, ''))))];
}

export async function englishLeft(page: Page): Promise<string[]> {
  return english(await chromeLines(page));
}

/** A look at the visible chrome's lines and when it was taken, for `englishLeftSince`. */
export interface ChromeLook {
  lines: string[];
  at: number;
}
export async function chromeLook(page: Page): Promise<ChromeLook> {
  const lines = await chromeLines(page);
  return { lines, at: Date.now() };
}

/**
 * `englishLeftSettled` for a screen already settled (no aria-busy) whose chrome was looked at once before other work
 * (the route walk's axe check, 300-1,000 ms): a second look the same, at least 150 ms later, is the two looks that
 * function takes; a change, or a second look too soon, waits for it as that function does. In the route walk the
 * 150 ms poll of every sidebar screen took 24 s of its 168 (71 screens, 2026-12-04, load 7-10).
 */
export async function englishLeftSince(page: Page, first: ChromeLook): Promise<string[]> {
  const soon = Date.now() - first.at < 150;
  if (!soon) {
    const lines = await chromeLines(page);
    if (lines.join('\n') === first.lines.join('\n')) return english(lines);
  }
  return englishLeftSettled(page);
}

/** The open view's English lines once it has settled: no lazy screen or list still loading (aria-busy), and its
 * chrome the same in two looks 150 ms apart (cards and pickers that fill in after their data). */
export async function englishLeftSettled(page: Page): Promise<string[]> {
  await expect(page.locator('[data-testid="view"]:visible [aria-busy="true"]')).toHaveCount(0);
  let last: string | null = null;
  let lines: string[] = [];
  await expect
    .poll(
      async () => {
        lines = await chromeLines(page);
        const now = lines.join('\n');
        const same = now === last;
        last = now;
        return same;
      },
      { intervals: [150] },
    )
    .toBe(true);
  return english(lines);
}

// Issue 50: a screen's body, not only its chrome: every visible line of the open view is checked, for an English value
// of the message tables (whole line, any case: "connected", "online", "Why?") and for an English template of them
// filled with values ("The live event stream (newest 200).", "Page 1 of 3"), inside a longer line too when the
// template has two words of its own or more. Data values (names, a table's data cells) are allowed.
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ENGLISH_LOWER = new Set([...ENGLISH].map((s) => s.toLowerCase()));
const TEMPLATES = [...Object.keys(zhText), ...Object.values(enRoutes())]
  .filter((s) => /\{\w+\}/.test(s) && /[A-Za-z]{3}/.test(s.replace(/\{\w+\}/g, '')))
  .map((s) => {
    const words = s.replace(/\{\w+\}/g, ' ').match(/[A-Za-z]{2,}/g) ?? [];
    const body = s
      .split(/\{\w+\}/)
      .map(escape)
      .join('.+?');
    return new RegExp(words.length >= 2 ? body : `^${body}$`);
  });
/** Long English sentences of the tables, found inside a longer line (a description with a tag after it). */
const SENTENCES = [...ENGLISH].filter((s) => (s.match(/[A-Za-z]{2,}/g) ?? []).length >= 4);

export async function englishInBody(page: Page): Promise<string[]> {
  await expect(page.locator('[data-testid="view"]:visible [aria-busy="true"]')).toHaveCount(0);
  // a table's data cells (names, event messages as stored, usernames) are data; a cell with a button or a tag is not
  const [all, data] = await Promise.all(
    ['[data-testid="view"]:visible', '[data-testid="view"]:visible td'].map((sel, i) =>
      page.locator(sel).evaluateAll(
        (els, cells) =>
          els
            .filter((e) => !cells || !e.querySelector('button, .bp6-tag'))
            .flatMap((e) => (e as HTMLElement).innerText.split('\n'))
            .map((s) => s.trim())
            .filter(Boolean),
        i === 1,
      ),
    ),
  );
  const isData = new Set(data);
  const lines = all.filter((l) => !isData.has(l));
  return [...new Set(lines.filter((l) => ENGLISH_LOWER.has(l.toLowerCase()) || TEMPLATES.some((re) => re.test(l)) || SENTENCES.some((s) => l.includes(s))))];
}
