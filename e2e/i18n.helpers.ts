// What is English in the console's chrome once it speaks Chinese: the lines of visible chrome text that are exactly an
// English value of our own message tables (data values such as names are allowed). Used by the zh-CN language spec and
// by the route walk (e2e/a11y.spec.ts), which checks every sidebar screen in zh-CN as it checks its accessibility.
import { expect as baseExpect, type Page } from './fixtures';
import { en as common } from '../src/i18n/common';
import { zhText } from '../src/i18n/text';
import { enRoutes } from '../src/i18n/routes';
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

/** The visible chrome's lines of text. */
async function chromeLines(page: Page): Promise<string[]> {
  return page.locator(CHROME).evaluateAll((els) =>
    els
      .filter((e) => (e as HTMLElement).offsetParent !== null)
      .flatMap((e) => (e as HTMLElement).innerText.split('\n'))
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/** Lines of chrome text that are exactly an English value of the message tables. */
function english(lines: string[]): string[] {
  return [...new Set(lines.filter((l) => ENGLISH.has(l) || ENGLISH.has(l.replace(/\s*\*$/, ''))))];
}

export async function englishLeft(page: Page): Promise<string[]> {
  return english(await chromeLines(page));
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
