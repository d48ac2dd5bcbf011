// The sign-in page's own decisions: when a cold load shows it, which language it speaks, its words, which return
// address it passes on, what its chunk carries, and its stylesheet.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rememberedLocale as consoleLocale } from '../app/useTimeAndLanguageSync';
import { handDraft, onDraftTaken, peekHandedDraft, takeHandedDraft } from './handover';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Button } from '@blueprintjs/core';
import { redirectOfQuery, safeRedirect } from './redirect';
import { signInCss, signInMarkup } from './signinCss';
import { providersOf } from './SignInPage';
import { rememberedLocale, SIGN_IN_TEXT } from './strings';
import { signInPageVariant } from './variant';

const storage = (items: Record<string, string>): Pick<Storage, 'getItem'> => ({ getItem: (k) => items[k] ?? null });

describe('the sign-in page', () => {
  it('stands in for /login and /login-remake on a cold load with no stored session, and for nothing else', () => {
    expect(signInPageVariant('/login', storage({}))).toBe('split');
    expect(signInPageVariant('/login-remake', storage({}))).toBe('centered');
    expect(signInPageVariant('/login', storage({ jwt: 'a.b.c' }))).toBeNull();
    expect(signInPageVariant('/login-remake', storage({ jwt: 'a.b.c' }))).toBeNull();
    expect(signInPageVariant('/', storage({}))).toBeNull();
    expect(signInPageVariant('/forgot-password', storage({}))).toBeNull();
    expect(signInPageVariant('/login/', storage({}))).toBeNull();
    // issue 49: back from an identity provider with a ticket: the console starts, to exchange it
    expect(signInPageVariant('/login', storage({}), '#iam=abc')).toBeNull();
    expect(signInPageVariant('/login', storage({}), '#other')).toBe('split');
    const locked = {
      getItem: () => {
        throw new Error('storage is not available');
      },
    };
    expect(signInPageVariant('/login', locked)).toBeNull();
  });

  it('speaks the language the console would: the last signed-in user’s on this browser', () => {
    const cases: Record<string, string>[] = [{}, { 'gatehouse.locale': 'zh-CN' }, { 'gatehouse.locale': 'en' }, { 'gatehouse.locale': 'fr' }];
    for (const items of cases) {
      const s = storage(items);
      globalThis.localStorage = s as Storage;
      expect(rememberedLocale(s)).toBe(consoleLocale());
    }
    expect(rememberedLocale(storage({ 'gatehouse.locale': 'zh-CN' }))).toBe('zh-CN');
    expect(rememberedLocale(storage({}))).toBe('en');
    Reflect.deleteProperty(globalThis, 'localStorage');
  });

  it('has every word in zh-CN too (the sign-in page and the console’s sign-in screen draw this one table)', () => {
    // the brand and the /login title are the same in every language, as the console always showed them
    const same = new Set(['brand', 'title']);
    for (const [key, en] of Object.entries(SIGN_IN_TEXT.en)) {
      const zh = SIGN_IN_TEXT['zh-CN'][key as keyof typeof SIGN_IN_TEXT.en];
      expect(zh, key).toBeTruthy();
      if (!same.has(key)) expect(zh, key).not.toBe(en);
    }
  });

  it('passes on only a same-origin return address that is not the sign-in page', () => {
    expect(redirectOfQuery('?redirect=%2Fdoors%3Fq%3D1')).toBe('/doors?q=1');
    expect(redirectOfQuery('?redirect=https%3A%2F%2Fevil.example')).toBeNull();
    expect(redirectOfQuery('?redirect=%2F%2Fevil.example')).toBeNull();
    expect(redirectOfQuery('?redirect=%2Flogin')).toBeNull();
    expect(redirectOfQuery('')).toBeNull();
    expect(safeRedirect('/alarms')).toBe('/alarms');
  });

  it('hands its draft to the console’s form once, and hears when the form took it', () => {
    const heard: string[] = [];
    const stop = onDraftTaken(() => heard.push('taken'));
    expect(takeHandedDraft()).toBeNull();
    handDraft({ username: 'operator', password: 'secret' });
    expect(peekHandedDraft()).toEqual({ username: 'operator', password: 'secret' });
    expect(takeHandedDraft()).toEqual({ username: 'operator', password: 'secret' });
    expect(takeHandedDraft()).toBeNull();
    expect(peekHandedDraft()).toBeNull();
    stop();
    handDraft({ username: 'auditor', password: 'x' });
    takeHandedDraft();
    expect(heard).toEqual(['taken']);
  });
});

describe('the sign-in chunk', () => {
  /** The modules `entry` brings in by static import (relative paths followed), and the packages it asks for. */
  function importGraph(entry: string): { files: string[]; packages: Set<string> } {
    const files: string[] = [];
    const packages = new Set<string>();
    const walk = (file: string) => {
      if (files.includes(file)) return;
      files.push(file);
      // static imports only (a type-only import is erased; a dynamic one is another chunk)
      for (const m of readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*?from '([^']+)';/gms)) {
        const spec = m[1];
        if (!spec.startsWith('.')) {
          packages.add(spec);
          continue;
        }
        const base = resolve(dirname(file), spec);
        const found = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ext) => base + ext).find((f) => existsSync(f) && statSync(f).isFile());
        expect(found, `${spec} from ${file}`).toBeTruthy();
        walk(found!);
      }
    };
    walk(fileURLToPath(new URL(entry, import.meta.url)));
    return { files: files.map((f) => relative(fileURLToPath(new URL('../..', import.meta.url)), f)), packages };
  }

  it('is React and the one sign-in form: no Blueprint component, router, actor system, catalogue or i18next', () => {
    const { files, packages } = importGraph('./SignInPage.tsx');
    // Blueprint's icons as their path files alone (src/signin/iconPaths.ts), not its components
    expect([...packages].filter((p) => !p.startsWith('@blueprintjs/icons/lib/esm/generated/')).sort()).toEqual(['react', 'react-dom/client']);
    expect(files.filter((f) => !/^(src\/signin|contract)\//.test(f))).toEqual([]);
    expect(files).toContain('src/signin/SignInView.tsx');
  });

  it('is the form the console’s sign-in screen draws (src/screens/auth), not a second one', () => {
    const { files } = importGraph('../screens/auth/SignInForm.tsx');
    expect(files).toContain('src/signin/SignInView.tsx');
    expect(files).toContain('src/signin/handover.ts');
  });

  it('offers the identity providers the server lists, with the page’s return address, and nothing else', () => {
    const listed = [
      { key: 'env', name: 'Corp SSO', start: '/idp/1.0/oidc/start?provider=env' },
      { key: 'evil', name: 'Elsewhere', start: 'https://evil.example/start' },
      { key: 7, name: 'Bad', start: '/idp/x' },
    ];
    expect(providersOf(listed, '?redirect=%2Fdoors')).toEqual([{ key: 'env', name: 'Corp SSO', href: '/idp/1.0/oidc/start?provider=env&return=%2Fdoors' }]);
    expect(providersOf(listed, '')).toEqual([{ key: 'env', name: 'Corp SSO', href: '/idp/1.0/oidc/start?provider=env' }]);
    expect(providersOf({ error: 'x' }, '')).toEqual([]);
  });

  it('draws the passkey’s button as Blueprint’s Button (its icon aside: Blueprint draws it once its paths are loaded)', () => {
    const page = signInMarkup('split', 'en', { passkey: true });
    const button = renderToStaticMarkup(createElement(Button, { large: true, fill: true, icon: 'key', text: SIGN_IN_TEXT.en.passkey }));
    const ours = /<button type="button" class="bp6-button bp6-fill bp6-large"[^>]*>.*?<\/button>/.exec(page)![0];
    const icon = (m: string) => m.replace(/<span aria-hidden="true"[^>]*class="bp6-icon [^"]*"[^>]*>(<svg.*?<\/svg>)?<\/span>/, '<icon/>');
    expect(icon(ours.replace(/ data-testid="[^"]*"/, ''))).toBe(icon(button));
    expect(ours).toContain('<svg data-icon="key"');
  });
});

describe('the sign-in page’s stylesheet', () => {
  it('is the console’s rules that can apply to the page, picked from Blueprint’s sheet and the console’s own (the build makes it: vite.config.ts)', async () => {
    const css = await signInCss();
    // the rules the page is drawn with are in it, the focus ring too; the rest of the console's are not
    for (const rule of [
      '.gh-auth__brand {',
      '.bp6-input:focus',
      '.bp6-button.bp6-intent-primary',
      '.bp6-callout.bp6-intent-danger',
      ':focus {',
      '.bp6-spinner-head {',
    ])
      expect(css, rule).toContain(rule);
    for (const rule of ['.bp6-table-', '.bp6-popover', '.gh-sidebar']) expect(css, rule).not.toContain(rule);
    expect(css.length).toBeLessThan(readFileSync(fileURLToPath(import.meta.resolve('@blueprintjs/core/lib/css/blueprint.css')), 'utf8').length / 5);
  }, 60_000);
});
