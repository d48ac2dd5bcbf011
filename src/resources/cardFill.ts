// Pure rules for filling a registration form from a read identity card (MyKad) or a companion photo:
// how a card name becomes first and last name, and which fields a read may fill without asking (tested).
import type { FilePayload, MyKad } from '../../contract';

/**
 * Words that join a Malaysian given name to the father's name: bin/binti (Malay), a/l and a/p (Indian),
 * s/o and d/o. What follows the marker, marker included, is the family part.
 */
const PATRONYMIC = /^(BIN|BINTI|BINTE|BT\.?|B\.|A\/L|A\/P|S\/O|D\/O)$/i;

const capitalise = (word: string) => word.toLowerCase().replace(/(^|[-'’])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
/** A marker joins two names: never the first or the last word. */
const isMarker = (words: readonly string[], i: number) => i > 0 && i < words.length - 1 && PATRONYMIC.test(words[i]);
const casedWords = (words: readonly string[]) => words.map((w, i) => (isMarker(words, i) ? w.toLowerCase() : capitalise(w)));
const wordsOf = (text: string) => text.trim().split(/\s+/).filter(Boolean);

/** 'NURUL AINI BINTI ISMAIL' → 'Nurul Aini binti Ismail'; keeps hyphens and apostrophes ('O'NEIL-LEE' → 'O'Neil-Lee'). */
export function titleCaseName(text: string): string {
  return casedWords(wordsOf(text)).join(' ');
}

/**
 * A card's one-field name as first and last name. With a patronymic marker: given name / marker + father's
 * name ('NURUL AINI BINTI ISMAIL' → 'Nurul Aini' / 'binti Ismail'). Without: the last word is the last name.
 * A single word is the first name; the last name is left for the operator (it is never made up).
 */
export function splitCardName(name: string): { firstName: string; lastName: string } {
  const words = wordsOf(name);
  const cased = casedWords(words);
  if (words.length === 0) return { firstName: '', lastName: '' };
  const marker = words.findIndex((_w, i) => isMarker(words, i));
  if (marker > 0) return { firstName: cased.slice(0, marker).join(' '), lastName: cased.slice(marker).join(' ') };
  if (words.length === 1) return { firstName: cased[0], lastName: '' };
  return { firstName: cased.slice(0, -1).join(' '), lastName: cased[cased.length - 1] };
}

/** A file payload as an `<img src>` and as the identity's stored photo. */
export function photoDataUrl(file: FilePayload): string {
  return `data:${file.mimeType};base64,${file.data}`;
}

/** The form values a card gives; empty ones are left out (a read never blanks a field). */
export function cardValues(card: MyKad): Record<string, string> {
  const { firstName, lastName } = splitCardName(card.name);
  const out: Record<string, string> = { firstName, lastName, idNumber: card.idNumber };
  if (card.photo) out.photo = photoDataUrl(card.photo);
  for (const k of Object.keys(out)) if (out[k] === '') delete out[k];
  return out;
}

export interface FieldNow {
  value: unknown;
  /** final-form's `dirty`: the value differs from the one the form started with. */
  dirty: boolean;
}

export interface Conflict {
  name: string;
  current: string;
  incoming: string;
}
export interface FillPlan {
  /** Fields the read may fill at once: untouched, empty, equal, or last filled by a read and not edited since. */
  apply: Record<string, string>;
  /** Fields the operator edited to something else: filled only if the operator says so. */
  conflicts: Conflict[];
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/**
 * Which incoming values may replace what the form holds. A field counts as edited by the operator when it is
 * dirty, not empty, and not what an earlier read put there (`filled`); such a field is never replaced without
 * asking.
 */
export function planFill(incoming: Record<string, string>, fields: (name: string) => FieldNow | undefined, filled: Record<string, string> = {}): FillPlan {
  const apply: Record<string, string> = {};
  const conflicts: Conflict[] = [];
  for (const [name, value] of Object.entries(incoming)) {
    const now = fields(name);
    const current = text(now?.value);
    if (current === value) continue;
    const editedByOperator = !!now?.dirty && current.trim() !== '' && filled[name] !== current;
    if (editedByOperator) conflicts.push({ name, current, incoming: value });
    else apply[name] = value;
  }
  return { apply, conflicts };
}
