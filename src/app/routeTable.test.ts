import { describe, expect, it } from 'vitest';
import { PRIVILEGE_CODES } from '../../contract';
import { ATTENDANCE_MENU, ROUTES } from './routeTable';

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
