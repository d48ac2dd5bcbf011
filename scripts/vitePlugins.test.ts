// The icon scan behind `virtual:blueprint-icons`: what it finds is bundled and drawn at once; what it misses is
// drawn with the icon font until Blueprint's 300 KB chunk of every icon arrives, so it must see every form the
// console names icons in, the route table's data included.
import { describe, expect, it } from 'vitest';
import { ROUTES, SECTIONS } from '../src/app/routeTable';
import { blueprintIconNames, iconNamesIn, usedIconNames } from './vitePlugins';

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
});
