// The light sign-in page's own decisions: when a cold load shows it, which language it speaks, its words against
// the console's dictionaries, and which return address it passes on.
import { describe, expect, it } from 'vitest';
import { rememberedLocale as consoleLocale } from '../app/useTimeAndLanguageSync';
import { handDraft, onDraftTaken, peekHandedDraft, takeHandedDraft } from './handover';
import { lightSignInVariant } from './LightSignIn';
import { redirectOfQuery, safeRedirect } from './redirect';
import { rememberedLocale, SIGN_IN_TEXT } from './strings';

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
