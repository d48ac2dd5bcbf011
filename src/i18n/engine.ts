// i18next with the zh-CN dictionaries: what the console says in a language other than English, in a chunk of its own
// (issue 48). An English console never downloads it: English is each string's own text with its `{name}` placeholders
// filled (./index.ts); src/i18n/index.ts loads this module before it switches to Chinese (a stored zh-CN locale at
// start, the settings drawer's switch). vite.config.ts (START_LATER) fails the build when it is in the console's start.
import i18next from 'i18next';
import { en } from './common';
import { zh } from './common.zh';
import { zhBundles } from './zh';

export const i18n = i18next.createInstance();
void i18n.init({
  lng: 'zh-CN',
  fallbackLng: 'en',
  supportedLngs: ['en', 'zh-CN'],
  ns: ['common', 'text', 'routes', 'catalogue', 'server', 'privileges'],
  defaultNS: 'common',
  // keys are identifiers, paths or English sentences: no nesting, no namespace prefix inside a key
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  returnEmptyString: false,
  initAsync: false,
  resources: {
    // routes, catalogue, privileges and text in English: none kept, every lookup passes its English as the fallback
    en: { common: en, text: {}, routes: {}, catalogue: {}, server: {}, privileges: {} },
    'zh-CN': { common: zh, ...zhBundles },
  },
});

// A word without values is looked up once per language: i18next's t() costs a few microseconds a call and a first
// screen asks for thousands (titles, labels, buttons).
const looked = new Map<string, string>();
export function lookUp(ns: string, loc: string, key: string, english: string | undefined): string {
  const k = `${ns}\u0000${loc}\u0000${key}\u0000${english ?? ''}`;
  let said = looked.get(k);
  if (said === undefined) {
    said = i18n.t(key, english === undefined ? { ns, lng: loc } : { ns, lng: loc, defaultValue: english }) as string;
    if (looked.size >= 20_000) looked.clear(); // words from elsewhere (server sentences) do not pile up
    looked.set(k, said);
  }
  return said;
}
