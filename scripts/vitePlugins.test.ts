// The icon scan behind `virtual:blueprint-icons`: what it finds is bundled and drawn at once; what it misses is
// drawn with the icon font until Blueprint's 300 KB chunk of every icon arrives, so it must see every form the
// console names icons in, the route table's data included.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROUTES, SECTIONS } from '../src/app/routeTable';
import { axiosXhrOnly, blueprintIconNames, ICON_NAMES_MODULE, iconNamesIn, iconNamesModule, startIconNames, usedIconNames } from './vitePlugins';

const known = blueprintIconNames();

describe('the icon scan', () => {
  it('finds names in props, fields, conditionals and IconName casts, and only real icon names', () => {
    const text = `
      <Button icon="trash" text="Delete row" />
      <Icon icon={open ? 'chevron-down' : 'chevron-right'} size={12} />
      <Button rightIcon={"caret-down"} endIcon='more' />
      const section = { id: 'general', title: 'General', icon: 'home' };
      const fallback = (route.icon ?? 'dot') as IconName;
      const maybe = 'warning-sign' as IconName;
      const label = 'refresh'; // not an icon context
      <Button icon="not-an-icon-name" />`;
    expect(iconNamesIn(text, known).sort()).toEqual(['caret-down', 'chevron-down', 'chevron-right', 'dot', 'home', 'more', 'trash', 'warning-sign']);
  });

  it('sees every icon of the route table and the sidebar sections in the console sources', () => {
    const used = new Set(usedIconNames(['src', 'contract']));
    const named = [...SECTIONS.map((s) => s.icon), ...ROUTES.flatMap((r) => (r.icon ? [r.icon] : []))];
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((n) => known.has(n) && !used.has(n))).toEqual([]);
    expect(named.filter((n) => !known.has(n))).toEqual([]); // a typo would be drawn as nothing
  });

  it("gives the start's 16 px icons as the shell's and the dashboard's: every sidebar icon, none named only by another screen", () => {
    const start = new Set(startIconNames(['src/app/App.tsx', 'src/signin/mountConsole.tsx', 'src/screens/general/DashboardScreen.tsx']));
    const named = [...SECTIONS.map((s) => s.icon), ...ROUTES.flatMap((r) => (r.icon ? [r.icon] : []))];
    expect(named.filter((n) => known.has(n) && !start.has(n))).toEqual([]);
    // the floor plan monitor's own icons are not the start's
    const floorPlan = new Set(iconNamesIn(readFileSync('src/screens/monitor/FloorPlanScreen.tsx', 'utf8'), known));
    expect([...floorPlan].filter((n) => !start.has(n)).length).toBeGreaterThan(0);
    expect(start.size).toBeLessThan(usedIconNames(['src', 'contract']).length);
  });
});

describe("the small stand-in for Blueprint's iconNames module", () => {
  it('gives the same IconNamesSet and IconNames as Blueprint’s own, and replaces only that module', async () => {
    const dir = `${process.cwd()}/.tmp/vitePlugins-test`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/iconNames.mjs`, iconNamesModule());
    const small = (await import(/* @vite-ignore */ pathToFileURL(`${dir}/iconNames.mjs`).href)) as typeof import('@blueprintjs/icons/lib/esm/iconNames');
    const real = await import('@blueprintjs/icons/lib/esm/iconNames');
    expect([...small.IconNamesSet]).toEqual([...real.IconNamesSet]);
    expect(small.IconNamesSet.has('warning-sign')).toBe(true);
    expect((small.IconNamesSet as Set<string>).has('not-an-icon')).toBe(false);
    // both spellings, as the loader's loadAll and core's components read them
    expect(small.IconNames.WarningSign).toBe('warning-sign');
    expect(small.IconNames.WARNING_SIGN).toBe('warning-sign');
    expect('Cross' in small.IconNames).toBe(true);
    expect(Object.keys(small.IconNames)).toEqual(Object.keys(real.IconNames));
    expect(Object.values(small.IconNames)).toEqual(Object.values(real.IconNames));
    expect(ICON_NAMES_MODULE.test('/x/node_modules/@blueprintjs/icons/lib/esm/iconNames.js')).toBe(true);
    expect(ICON_NAMES_MODULE.test('/x/node_modules/@blueprintjs/icons/lib/esm/iconLoader.js')).toBe(false);
    expect(ICON_NAMES_MODULE.test('/x/node_modules/@blueprintjs/icons/lib/cjs/iconNames.js')).toBe(false);
  });
});

describe('axios without its fetch adapter', () => {
  const plugin = axiosXhrOnly();
  const resolve = plugin.resolveId as (source: string, importer?: string) => string | null;
  const load = plugin.load as (id: string) => string | null;
  it("replaces only the adapters registry's fetch.js, by a module saying fetch is not supported", () => {
    const id = resolve('./fetch.js', '/app/node_modules/axios/lib/adapters/adapters.js');
    expect(id).toBeTruthy();
    expect(load(id!)).toContain('getFetch = () => false');
    expect(resolve('./fetch.js', '/app/src/api/stream.ts')).toBeNull();
    expect(resolve('./xhr.js', '/app/node_modules/axios/lib/adapters/adapters.js')).toBeNull();
  });
});
