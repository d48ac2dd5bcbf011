import { describe, expect, it } from 'vitest';
import { CATALOGUE, PRIVILEGE_CODES } from '../../contract';
import { BINS } from '../../model-tests/madeUpResource';
import { SIGN_IN_PAGE_PATHS } from '../signin/variant';
import { ATTENDANCE_MENU, ROUTES, withDeclaredRoutes } from './routeTable';

describe('the route table', () => {
  it('uses only privilege codes that exist in the contract catalogue', () => {
    const unknown = ROUTES.flatMap((r) => (r.privileges ?? []).filter((c) => !PRIVILEGE_CODES.has(c)).map((c) => `${r.path}: ${c}`));
    expect(unknown).toEqual([]);
  });

  it('lists every path once', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
  });

  it('keeps the spec codes exactly where the spec names them', () => {
    const codes = (path: string) => ROUTES.find((r) => r.path === path)?.privileges;
    expect(codes('/dashboard')).toEqual(['0.1']);
    expect(codes('/manage/clients')).toEqual(['9.2.0']);
    expect(codes('/manage/clients/add')).toEqual(['9.2.1']);
    expect(codes('/manage/clients/edit/:id')).toEqual(['9.2.2']);
    expect(codes('/print-record')).toEqual(['1.0.10']);
    expect(codes('/attendance/leave-category/edit/:id')).toEqual(['3.7.2', '3.7.0']);
    expect(codes('/attendance/teams/edit/:id')).toEqual(['3.0.2', '3.0.0']);
    expect(codes('/attendance/work-schedule/edit/:id')).toEqual(['3.1.2', '3.1.0']);
    expect(codes('/attendance/summaries')).toEqual(['3.6.0']);
    expect(codes('/visitor/credentials/batch-add')).toEqual(['1.2.4']);
    expect([...ATTENDANCE_MENU]).toEqual(['3.0.0', '3.0.1', '3.0.2', '3.1.0', '3.1.1', '3.1.2', '3.2.0', '3.3', '3.4', '3.5.0', '3.6.0', '3.7.0', '3.8.0']);
  });

  it('gives sign-in, reset, forgot, print and 403 no layout, and does not cache reset, forgot and print', () => {
    for (const p of ['/login', '/login-remake', '/reset-password', '/forgot-password', '/print-record', '/403-access-denied']) {
      expect(ROUTES.find((r) => r.path === p)?.layout, p).toBe(false);
    }
    for (const p of ['/reset-password', '/forgot-password', '/print-record']) expect(ROUTES.find((r) => r.path === p)?.cache, p).toBe(false);
  });

  it('marks exactly the paths a sign-in page stands in for as handing over to the screen the sign-in leads to', () => {
    // the sign-in page mounts the console on these routes' screens (src/signin/variant.ts); a route missing the flag
    // would count its sign-in screen as the opening one (issue 48: the later loads in the middle of the sign-in)
    expect(SIGN_IN_PAGE_PATHS.length).toBeGreaterThan(0);
    expect(
      ROUTES.filter((r) => r.handsOver)
        .map((r) => r.path)
        .sort(),
    ).toEqual([...SIGN_IN_PAGE_PATHS].sort());
  });

  it('hides attendance children and add/edit routes from the sidebar', () => {
    const shown = ROUTES.filter((r) => !r.hidden).map((r) => r.path);
    expect(shown.filter((p) => p.startsWith('/attendance/'))).toEqual([]);
    expect(shown.filter((p) => /\/(add|edit)(\/|$)/.test(p))).toEqual([]);
  });

  it('prefixes every section route with its section', () => {
    for (const r of ROUTES) {
      if (r.section === 'general') continue;
      expect(r.path.startsWith(`/${r.section}`), r.path).toBe(true);
    }
  });
});

describe('route icons', () => {
  it('names only icons Blueprint has', async () => {
    const { IconNames } = await import('@blueprintjs/icons');
    const known = new Set<string>(Object.values(IconNames));
    expect(ROUTES.filter((r) => r.icon && !known.has(r.icon)).map((r) => `${r.path}: ${r.icon}`)).toEqual([]);
  });
});

describe('routes derived from a declaration (issue 48: a resource is its declaration and its migration)', () => {
  const bins = BINS;

  it("gives a resource with a description its list, add and edit rows after its section's last row", () => {
    const rows = withDeclaredRoutes(ROUTES, [bins]);
    const at = rows.findIndex((r) => r.path === '/configure/bins');
    expect(at).toBeGreaterThan(0);
    expect(rows.slice(at, at + 3).map((r) => [r.path, r.title, r.privileges, r.hidden, r.screen, r.description])).toEqual([
      ['/configure/bins', 'Bins', ['0.4.99.0'], false, 'catalogueList', 'Where lost property waits for its owner.'],
      ['/configure/bins/add', 'Add bin', ['0.4.99.1'], true, 'catalogueForm', 'Create a new bin.'],
      ['/configure/bins/edit/:id', 'Edit bin', ['0.4.99.2'], true, 'catalogueForm', 'Change an existing bin.'],
    ]);
    expect(rows[at - 1].section).toBe('configure');
    expect(rows[at + 3].section).not.toBe('configure'); // the section's end, not the table's
    expect(rows).toHaveLength(ROUTES.length + 3);
  });

  it('derives nothing for a resource without a description, or one with a row of its own', () => {
    const { description: _, ...quiet } = bins;
    expect(withDeclaredRoutes(ROUTES, [quiet])).toEqual(ROUTES);
    const own = [...ROUTES, { ...ROUTES[0], path: '/configure/bins', section: 'configure' as const }];
    expect(withDeclaredRoutes(own, [bins])).toEqual(own);
  });

  it('places a resource of a section with no rows yet after the sections before it', () => {
    const withoutConfigure = ROUTES.filter((r) => r.section !== 'configure');
    const rows = withDeclaredRoutes(withoutConfigure, [bins]);
    const at = rows.findIndex((r) => r.path === '/configure/bins');
    expect(rows[at - 1].section).toBe('manage');
    expect(rows[at + 3].section).toBe('hardware');
  });

  it('refuses a section the sidebar does not have', () => {
    expect(() => withDeclaredRoutes(ROUTES, [{ ...bins, section: 'nowhere' }])).toThrow(/no sidebar section nowhere/);
  });

  it('the table holds the catalogue resources that say what they are for (outputs, the credential store)', () => {
    const described = CATALOGUE.filter((r) => r.description);
    expect(described.map((r) => r.name)).toEqual(expect.arrayContaining(['outputs', 'credentialStore']));
    for (const r of described) expect(ROUTES.find((x) => x.path === r.route)?.description).toBe(r.description);
    // derived at the end of their sections, where the specification's table has them
    expect(ROUTES.findIndex((x) => x.path === '/hardware/output')).toBe(ROUTES.findLastIndex((x) => x.section === 'hardware' && !x.hidden));
  });
});
