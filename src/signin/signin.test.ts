// The light sign-in page's own decisions: when a cold load shows it, which language it speaks, its words against
// the console's dictionaries, which return address it passes on, and its markup against the console's form.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rememberedLocale as consoleLocale } from '../app/useTimeAndLanguageSync';
import { handDraft, onDraftTaken, peekHandedDraft, takeHandedDraft } from './handover';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { SignInIcon } from './icons';
import { LOAD_FAILED, lightSignInMarkup, lightSignInVariant } from './LightSignIn';
import { esc, frameMarkup, iconMarkup, signInFormMarkup, type SignInProvider } from './markup';
import { redirectOfQuery, safeRedirect } from './redirect';
import { signInCss } from './signinCss';
import { AuthFrameView, SignInView, type AuthVariant } from './SignInView';
import { rememberedLocale, SIGN_IN_TEXT, type SignInText } from './strings';

const storage = (items: Record<string, string>): Pick<Storage, 'getItem'> => ({ getItem: (k) => items[k] ?? null });

describe('the light sign-in page', () => {
  it('stands in for /login and /login-remake on a cold load with no stored session, and for nothing else', () => {
    expect(lightSignInVariant('/login', storage({}))).toBe('split');
    expect(lightSignInVariant('/login-remake', storage({}))).toBe('centered');
    expect(lightSignInVariant('/login', storage({ jwt: 'a.b.c' }))).toBeNull();
    expect(lightSignInVariant('/login-remake', storage({ jwt: 'a.b.c' }))).toBeNull();
    expect(lightSignInVariant('/', storage({}))).toBeNull();
    expect(lightSignInVariant('/forgot-password', storage({}))).toBeNull();
    expect(lightSignInVariant('/login/', storage({}))).toBeNull();
    // issue 49: back from an identity provider with a ticket: the console starts, to exchange it
    expect(lightSignInVariant('/login', storage({}), '#iam=abc')).toBeNull();
    expect(lightSignInVariant('/login', storage({}), '#other')).toBe('split');
    const locked = {
      getItem: () => {
        throw new Error('storage is not available');
      },
    };
    expect(lightSignInVariant('/login', locked)).toBeNull();
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

  it('has every word in zh-CN too (the console’s form and the light page draw this one table)', () => {
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

describe('the light sign-in page’s markup', () => {
  const forgot = (text: SignInText) => createElement('a', { href: '/forgot-password' }, text.forgotPassword);
  type State = { title: string; busy: boolean; error?: string | null; notice?: string | null; providers?: SignInProvider[] };
  const react = (text: SignInText, variant: AuthVariant, s: State) =>
    renderToStaticMarkup(
      createElement(AuthFrameView, {
        text,
        variant,
        children: createElement(SignInView, {
          text,
          title: s.title,
          draft: { username: '', password: '' },
          onDraft: () => undefined,
          onSubmit: () => undefined,
          busy: s.busy,
          error: s.error,
          notice: s.notice,
          forgotLink: forgot(text),
          providers: s.providers,
        }),
      }),
    );
  const light = (text: SignInText, variant: AuthVariant, s: State) =>
    frameMarkup(text, variant, signInFormMarkup(text, { ...s, forgotLink: renderToStaticMarkup(forgot(text)) }));

  it('is the console form’s markup, element for element, on /login and /login-remake in both languages', () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      const text = SIGN_IN_TEXT[locale];
      for (const variant of ['split', 'centered'] as const) {
        const title = variant === 'centered' ? text.welcomeBack : text.title;
        const first = react(text, variant, { title, busy: false });
        expect(lightSignInMarkup(variant, locale)).toBe(first);
        expect(first).toContain(`aria-label="${text.formLabel}"`);
        expect(first).toContain('<label class="bp6-label" for="password">');
      }
    }
  });

  it('stays the console form’s markup while busy, with an error or a notice', () => {
    const text = SIGN_IN_TEXT.en;
    const states = [
      { title: text.title, busy: true },
      { title: text.title, busy: false, error: LOAD_FAILED.en },
      { title: text.title, busy: true, notice: 'Your session expired & you were signed out.' },
      { title: '<Welcome> "back"', busy: false, error: 'Wrong password' },
      // issue 49: "Sign in with <provider>" under the form, names escaped
      { title: text.title, busy: false, providers: [{ key: 'env', name: 'Corp <SSO> & "Co"', href: '/idp/1.0/oidc/start?provider=env&return=%2Fdoors' }] },
      {
        title: text.title,
        busy: false,
        providers: [
          { key: 'a', name: 'A', href: '/a' },
          { key: 'b', name: 'B', href: '/b' },
        ],
      },
    ];
    for (const s of states) expect(light(text, 'split', s)).toBe(react(text, 'split', s));
    expect(light(SIGN_IN_TEXT['zh-CN'], 'centered', states[1])).toBe(react(SIGN_IN_TEXT['zh-CN'], 'centered', states[1]));
  });

  it('draws every icon as the console’s SignInIcon does, and escapes text as React does', () => {
    for (const icon of ['eye-off', 'eye-open', 'error', 'key-enter', 'lock', 'people', 'person', 'time', 'office'] as const) {
      expect(iconMarkup(icon)).toBe(renderToStaticMarkup(createElement(SignInIcon, { icon })));
      expect(iconMarkup(icon, -1)).toBe(renderToStaticMarkup(createElement(SignInIcon, { icon, tabIndex: -1 })));
    }
    const tricky = `a & b < c > d "e" 'f'`;
    expect(`<p>${esc(tricky)}</p>`).toBe(renderToStaticMarkup(createElement('p', null, tricky)));
  });
});

describe('the light sign-in page’s stylesheet', () => {
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
