// The console's languages: English by default, zh-CN as the original product's language (§9 time-ago labels). The
// language comes from the user's settings (src/app/useTimeAndLanguageSync.ts calls setLocale); every mounted view,
// kept-alive ones included, re-renders on a change (useLocale).
//
// English is each string's own text with its `{name}` placeholders filled (contract fillTemplate, the server's own
// filler): an English console never loads i18next (issue 48: it was 14 KB of the start's script). Another language is
// i18next + its dictionaries (./engine.ts, a chunk of its own), loaded before the console switches to it.
//
// Namespaces (i18next's, in ./engine.ts):
// - common:    keyed messages of the shell (./common.ts), `t('signIn')`;
// - text:      screen strings keyed by their English text (./text.ts), `tx('Alarm acknowledged')`: the English is the
//              key and the fallback, and a unit test checks every tx literal in src has a zh-CN entry;
// - routes:    route and section titles by path / section id (./routes.ts), derived from the route table;
// - catalogue: resource labels by derived key (`resource.<name>.field.<field>`, ./catalogue.ts), the English read
//              from the declarations, so the declarations stay pure data;
// - server:    the server's sentences with values by key (`access.notInside`, the catalogue's scheme: contract/messages.ts),
//              zh-CN in ./sentences.ts; the English is the server's own `message` (saySentence).
import { useSyncExternalStore } from 'react';
import { fillTemplate, formatTimeAgo, timeAgo, type DisplayLocale, type Sentence } from '../../contract';
import { CATALOGUE_INDEX } from '../../contract/resources/catalogueIndex';
import { en, type MessageKey } from './common';
import { catKey } from './catalogueKeys';

export type Locale = DisplayLocale;
export type { MessageKey };
export const LOCALES: readonly Locale[] = ['en', 'zh-CN'];

type Engine = typeof import('./engine');
/** i18next with the zh-CN dictionaries, once loaded (loadLocale). */
let engine: Engine | null = null;
let active: Locale = 'en';
const current = (): Locale => active;
const listeners = new Set<() => void>();

let engineLoading: Promise<void> | null = null;
/** The language's dictionaries, loaded once (zh-CN and i18next are a chunk of their own). */
export function loadLocale(loc: Locale): Promise<void> {
  if (loc !== 'zh-CN') return Promise.resolve();
  engineLoading ??= import('./engine')
    .then((m) => {
      engine = m;
    })
    .catch((e) => {
      engineLoading = null;
      throw e;
    });
  return engineLoading;
}
let wanted: Locale = 'en';
/** Switch the language: once its dictionaries are in, every mounted view re-renders in it (English meanwhile). */
export function setLocale(next: Locale): Promise<void> {
  wanted = next;
  return loadLocale(next).then(
    () => {
      if (wanted !== next || active === next) return;
      active = next;
      for (const l of [...listeners]) l();
    },
    () => {
      /* the chunk could not be loaded: the console stays in the language it has */
    },
  );
}
export const getLocale = current;

type Vars = Record<string, string | number>;
/** The language's i18next when the text is said in it: none for English, nor before the language's chunk is in. */
const engineFor = (loc: Locale): Engine | null => (loc === 'en' ? null : engine);
/** English (or the fallback before the chunk is in): the text with its placeholders filled, as i18next would. */
const fill = (text: string, vars: Vars | undefined): string => (vars ? fillTemplate(text, vars) : text);

/** A keyed message in the language (the current one unless `loc`); `{name}` placeholders are filled from `vars`. */
export function t(key: MessageKey, loc: Locale = current(), vars?: Vars): string {
  const e = engineFor(loc);
  if (!e) return fill(en[key] || key, vars);
  return vars ? (e.i18n.t(key, { ns: 'common', lng: loc, ...vars }) as string) : e.lookUp('common', loc, key, undefined);
}
/** A screen string by its English text; untranslated text falls back to itself. */
export function tx(text: string, vars?: Vars, loc: Locale = current()): string {
  const e = engineFor(loc);
  if (!e) return fill(text, vars);
  return vars ? (e.i18n.t(text, { ns: 'text', lng: loc, defaultValue: text, ...vars }) as string) : e.lookUp('text', loc, text, text);
}
/** A sentence from elsewhere (a server's refusal, a machine's message): a sentence with its key (a machine keeps the
 *  refusal's: machines/notProvided.ts errorSaid) said by it; text translated when the console's own dictionary has it
 *  (a fixed sentence), else shown exactly as given (never interpolated: it may hold braces of its own). No key is ever
 *  found again by a sentence's English: what the server said with a key travels with it to the view (issue 48). */
export function say(message: string | Sentence, loc: Locale = current()): string {
  if (typeof message !== 'string') return saySentence(message, loc);
  const e = engineFor(loc);
  if (!e) return message;
  if (e.i18n.exists(message, { ns: 'text', lng: loc })) return e.i18n.t(message, { ns: 'text', lng: loc, interpolation: { skipOnVariables: true } }) as string;
  return message;
}

let labels: Map<string, string> | null = null;
/** Every resource's label (one and many, lower case) → its catalogue key. */
function labelKeys(): Map<string, string> {
  if (labels) return labels;
  labels = new Map();
  for (const d of CATALOGUE_INDEX) {
    labels.set(d.label.one.toLowerCase(), catKey.one(d.name));
    labels.set(d.label.many.toLowerCase(), catKey.many(d.name));
  }
  return labels;
}
/** A sentence's value in the language when it is a word the console knows (a resource's label, a state), else as
 *  given (a name, a zone, an address). A count or a list of words is a sentence of its own (its key, its values), never
 *  English split apart here. */
function valueWord(i18n: Engine['i18n'], value: string, loc: Locale): string {
  for (const w of [value, value.charAt(0).toUpperCase() + value.slice(1)])
    if (i18n.exists(w, { ns: 'text', lng: loc })) return i18n.t(w, { ns: 'text', lng: loc, interpolation: { skipOnVariables: true } }) as string;
  const key = labelKeys().get(value.toLowerCase()) ?? (value.endsWith('s') ? labelKeys().get(value.slice(0, -1).toLowerCase()) : undefined);
  return key && i18n.exists(key, { ns: 'catalogue', lng: loc }) ? (i18n.t(key, { ns: 'catalogue', lng: loc }) as string) : value;
}
/** The placeholders whose values are words (a resource's label, a state, an action and its hint, an event's label, who swiped when
 *  unknown, a weekday): said in the language. Every other value is a name, a number or a time, shown as the server gave it. */
const WORD_PLACEHOLDERS = new Set(['what', 'state', 'done', 'action', 'seat', 'event', 'who', 'decision', 'weekday', 'hint']);
/** A sentence the server said with values (contract/messages.ts) in the language: its key's template with the
 *  values filled in, words among them translated too; the server's English for a key the language does not have.
 *  An edge's event journaled while offline carries when it happened (`offlineAt`, server/edge/ingest.ts), said after it. */
export function saySentence(sentence: Sentence, loc: Locale = current()): string {
  const i18n = engineFor(loc)?.i18n;
  if (!i18n?.exists(sentence.code, { ns: 'server', lng: loc })) return sentence.message;
  const replace: Record<string, string> = Object.fromEntries(
    Object.entries(sentence.values).map(([k, v]) => [k, typeof v === 'string' && WORD_PLACEHOLDERS.has(k) ? valueWord(i18n, v, loc) : String(v)]),
  );
  // a value that is a sentence of its own (contract sentenceValue: who acted, "unlock schedule Night"), said by its key
  for (const [k, code] of Object.entries(sentence.values)) {
    if (!k.endsWith(':code') || typeof code !== 'string') continue;
    const name = k.slice(0, -':code'.length);
    const inner = Object.entries(sentence.values).filter(([n]) => n.startsWith(`${name}.`));
    replace[name] = saySentence(
      { message: String(sentence.values[name] ?? ''), code, values: Object.fromEntries(inner.map(([n, v]) => [n.slice(name.length + 1), v])) },
      loc,
    );
  }
  const said = i18n.t(sentence.code, { ns: 'server', lng: loc, replace, interpolation: { skipOnVariables: true } }) as string;
  const at = sentence.values.offlineAt;
  return at === undefined ? said : said + tx(' (offline at {at})', { at: String(at) }, loc);
}
/** An event's message in the language: by its key when the server stored it with one (issue 48), else its English
 *  (an event stored before keys were kept, or one a device worded). */
export function sayEvent(e: { message: string; messageCode?: string; messageValues?: Sentence['values'] }, loc: Locale = current()): string {
  return e.messageCode ? saySentence({ message: e.message, code: e.messageCode, values: e.messageValues ?? {} }, loc) : e.message;
}
/** An alarm's instructions in the language: a built-in alarm type's by their key (issue 48), a person's as written. */
export function sayInstructions(e: { instructions?: string | null; instructionsCode?: string }, loc: Locale = current()): string {
  const written = e.instructions ?? '';
  const i18n = engineFor(loc)?.i18n;
  if (!i18n || !e.instructionsCode || !i18n.exists(e.instructionsCode, { ns: 'server', lng: loc })) return written;
  return i18n.t(e.instructionsCode, { ns: 'server', lng: loc, interpolation: { skipOnVariables: true } }) as string;
}
/** A route title (by path) or section title (`section.<id>`), English from the route table as the fallback. */
export function tRoute(key: string, english: string, loc: Locale = current()): string {
  return engineFor(loc)?.lookUp('routes', loc, key, english) ?? english;
}
/** A privilege's label by its code (contract/privileges.ts), English from the catalogue as the fallback. */
export function tPrivilege(code: string, english: string, loc: Locale = current()): string {
  return engineFor(loc)?.lookUp('privileges', loc, code, english) ?? english;
}
/** A catalogue label by derived key (see ./catalogue.ts), English from the declaration as the fallback. */
export function tCat(key: string, english: string, loc: Locale = current(), vars?: Vars): string {
  const e = engineFor(loc);
  if (!e) return fill(english, vars);
  return vars ? (e.i18n.t(key, { ns: 'catalogue', lng: loc, defaultValue: english, ...vars }) as string) : e.lookUp('catalogue', loc, key, english);
}

/**
 * §9 time-ago label in the current language; older than two days it is the date-time in `timeZone` (views pass the
 * user's, see src/ui/time.ts). `now` is passed in so callers and tests control time.
 */
export function timeAgoLabel(time: number | Date | string, now: number, loc: Locale = current(), timeZone = 'UTC'): string {
  const at = typeof time === 'string' ? new Date(time) : time;
  return formatTimeAgo(timeAgo(at, now), loc, timeZone);
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
/** The console's language; the component re-renders when it changes. */
export function useLocale(): Locale {
  return useSyncExternalStore(subscribe, current, current);
}
export function useT(): (key: MessageKey, vars?: Vars) => string {
  const loc = useLocale();
  return (key, vars) => t(key, loc, vars);
}
/** `tx` bound to the current language, re-rendering on a change. */
export function useTx(): (text: string, vars?: Vars) => string {
  const loc = useLocale();
  return (text, vars) => tx(text, vars, loc);
}

// ---------- route table titles (src/app/routeTable.ts stays English data) ----------
interface Titled {
  path: string;
  title: string;
  description?: string;
}
export const routeTitle = (r: Titled, loc: Locale = current()) => tRoute(r.path, r.title, loc);
export const routeDescription = (r: Titled, loc: Locale = current()) => (r.description ? tRoute(`desc:${r.path}`, r.description, loc) : undefined);
export const sectionTitle = (s: { id: string; title: string }, loc: Locale = current()) => tRoute(`section.${s.id}`, s.title, loc);
