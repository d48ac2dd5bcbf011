// Issue 48: an English console never loads i18next. English is each string's own text with its placeholders filled
// (src/i18n/index.ts); i18next and the zh-CN dictionaries (./engine.ts) load only for another language. Here the
// engine and i18next cannot load: a lookup in English that reached for them fails.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { en } from './common';
import type { MessageKey } from './index';

vi.mock('./engine', () => {
  throw new Error('the i18next engine was loaded in an English console');
});
vi.mock('i18next', () => {
  throw new Error('i18next was loaded in an English console');
});

// this file's own instance of the console's i18n: the test forks are shared between files (vitest `isolate: false`), and
// one of them may already have loaded the engine into the instance it imported (the clean-clone CI of 2026-12-05 did)
let i18n: typeof import('./index');
beforeAll(async () => {
  vi.resetModules();
  i18n = await import('./index');
});

describe('English without i18next', () => {
  it('says every keyed message, screen string, title and label as its English with placeholders filled', async () => {
    const { getLocale, say, saySentence, sayInstructions, setLocale, t, tCat, tPrivilege, tRoute, tx } = i18n;
    await setLocale('en');
    expect(getLocale()).toBe('en');
    expect(t('signIn')).toBe('Sign in');
    for (const key of Object.keys(en) as MessageKey[]) expect(t(key)).toBe(en[key]);
    expect(t('timeZoneHelp', 'en', { zone: 'GMT+8' })).toBe(en.timeZoneHelp.replace('{zone}', 'GMT+8'));
    expect(tx('Step {n} of {count}', { n: 2, count: 5 })).toBe('Step 2 of 5');
    // a placeholder without a value stays as written (i18next's own behaviour)
    expect(tx('{a} and {b}', { a: 'x' })).toBe('x and {b}');
    expect(tx('Alarm acknowledged')).toBe('Alarm acknowledged');
    expect(tRoute('/dashboard', 'Dashboard')).toBe('Dashboard');
    expect(tPrivilege('door.view', 'View doors')).toBe('View doors');
    expect(tCat('resource.doors.one', 'door {n}', 'en', { n: 3 })).toBe('door 3');
    expect(say('Saved {maybe}')).toBe('Saved {maybe}');
    expect(saySentence({ message: 'That person is not inside Vault', code: 'access.notInside', values: { zone: 'Vault' } })).toBe(
      'That person is not inside Vault',
    );
    expect(sayInstructions({ instructions: 'Call the guard', instructionsCode: 'alarm.forced' })).toBe('Call the guard');
  });
  it('stays in English when the chosen language cannot load, and keeps saying it', async () => {
    const { getLocale, setLocale, t, tx } = i18n;
    await setLocale('zh-CN');
    expect(getLocale()).toBe('en');
    // before its chunk is in, zh-CN is said in English (its keyed shell messages come with the chunk too)
    expect(t('signIn', 'zh-CN')).toBe('Sign in');
    expect(tx('Step {n} of {count}', { n: 1, count: 2 }, 'zh-CN')).toBe('Step 1 of 2');
  });
});
