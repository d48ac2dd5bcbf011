// The server's sentences with values (issue 48): a refusal, a violation and an event message carry their English
// (`message`, the API's language, what integrators read) and beside it the sentence's key and values, which the console
// says in the operator's language (src/i18n: the key looked up, the values filled in; a key it does not know is shown
// as the English). The server builds them with fill() (server/http/kit.ts).
//
// The key scheme is the catalogue's (src/i18n/catalogue.ts: `resource.<name>.field.<field>`): dot-separated
// camelCase words, the area first, then what is said: `record.notFound`, `door.alreadyLocked`, `event.doorCommand`.
import { array, integer, number, object, optional, pattern, record, string, union, type Infer } from './structs';

/** A key of a server sentence: dot-separated camelCase words, at least two (`access.notInside`). */
export const SENTENCE_KEY = /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/;
export const SentenceKey = pattern(string(), SENTENCE_KEY);
/** The values a sentence's placeholders are filled with (`{ zone: 'Vault' }`). */
export const SentenceValues = record(string(), union([string(), number()]));
export type SentenceValues = Infer<typeof SentenceValues>;

/** A sentence said with values: its English, its key and values (the console's translation of it). */
export interface Sentence {
  message: string;
  code: string;
  values: SentenceValues;
}

// A template split once at its placeholders (text, name, text, …): the access engine fills several a swipe, and a
// regular expression's replace each time cost about twice the whole decision (issue 48).
const partsOf = new Map<string, string[]>();
function parts(template: string): string[] {
  let p = partsOf.get(template);
  if (!p) {
    p = template.split(/\{(\w+)\}/);
    if (partsOf.size >= 2000) partsOf.clear(); // templates are the code's own: a few hundred
    partsOf.set(template, p);
  }
  return p;
}
/** `{zone}` placeholders of `template` filled from `values` (a name with no value stays as written). */
export function fillTemplate(template: string, values: SentenceValues): string {
  const p = parts(template);
  let out = p[0];
  for (let i = 1; i < p.length; i += 2) out += (p[i] in values ? String(values[p[i]]) : `{${p[i]}}`) + p[i + 1];
  return out;
}

/**
 * A sentence with values: `fill('access.notInside', 'That person is not inside {zone}', { zone })`. Its `message` is the
 * English (the API's language, what integrators read); its key and values travel beside it (a refusal's body, a
 * violation, an event), and the console says it in the reader's language by the key (src/i18n/sentences.ts holds each
 * key's zh-CN; src/i18n/i18n.test.ts reads every fill( of server/ and fails on a key without one). One template a key.
 */
export function fill(code: string, template: string, values: SentenceValues): Sentence {
  return { message: fillTemplate(template, values), code, values };
}

/**
 * A value that is a sentence of its own (who did it: "unlock schedule Night", "logical block Fire doors"): its English
 * as the value `name`, its key as `<name>:code` and its values as `<name>.<value>`, so the console says it by its key
 * inside the sentence that holds it (src/i18n/index.ts saySentence), never as English inside a translated sentence.
 * A plain string (a person's user name) is the value as it is.
 */
export function sentenceValue(name: string, value: string | Sentence): SentenceValues {
  if (typeof value === 'string') return { [name]: value };
  const out: SentenceValues = { [name]: value.message, [`${name}:code`]: value.code };
  for (const [k, v] of Object.entries(value.values)) out[`${name}.${k}`] = v;
  return out;
}

/**
 * A sentence flattened beside its English under one name (issue 48): `{ <name>: English, <name>Code: key, <name>Values:
 * values }`, as an answer's `message`, a backup list's `reason` and a restore's `problem` carry it. `schema` is the two
 * keyed fields for a superstruct `type`/`object`; `said` flattens a sentence; `of` reads it back for the console: the
 * sentence when it carries its key, else the plain English as it is (a device's words, an older record).
 */
export function keyedAs<N extends string>(name: N) {
  const codeKey = `${name}Code` as `${N}Code`;
  const valuesKey = `${name}Values` as `${N}Values`;
  type Keyed = { [K in `${N}Code`]?: string } & { [K in `${N}Values`]?: SentenceValues };
  return {
    schema: { [codeKey]: optional(SentenceKey), [valuesKey]: optional(SentenceValues) } as { [K in `${N}Code`]: ReturnType<typeof optional<string, null>> } & {
      [K in `${N}Values`]: ReturnType<typeof optional<SentenceValues, null>>;
    },
    said: (s: Sentence) => ({ [name]: s.message, [codeKey]: s.code, [valuesKey]: s.values }) as { [K in N]: string } & Required<Keyed>,
    of: <T extends { [K in N]?: string | null } & Keyed>(o: T): Sentence | T[N] => {
      const r = o as unknown as Record<string, unknown>; // the mapped type's keys, read plainly
      const code = r[codeKey] as string | undefined;
      return code ? { message: (r[name] as string | null) ?? '', code, values: (r[valuesKey] as SentenceValues | undefined) ?? {} } : o[name];
    },
  };
}

const keyedMessage = keyedAs('message');
/** An answer's message keyed (issue 48): its sentence's key and values beside its English `message`. */
export const MessageKeyed = keyedMessage.schema;
/** A success message with its key, as an answer carries it: `{ message, messageCode, messageValues }`. */
export const saidAsMessage = keyedMessage.said;
/** An answer's message as the console says it: its sentence when it carries its key, else its English (a device's words). */
export const messageOf = (a: { message: string; messageCode?: string; messageValues?: SentenceValues }): string | Sentence => keyedMessage.of(a);

/** One entry of a refusal's `violations`: a field and what is wrong with it, its sentence's key and values when it has them. */
export const ViolationBody = object({ field: string(), message: string(), code: optional(SentenceKey), values: optional(SentenceValues) });

/** A refusal, as every route answers one (server/http/kit.ts errorBody). `code` and `values` when the message is a sentence with values. */
export const Refusal = object({
  status: integer(),
  error: string(),
  message: string(),
  code: optional(SentenceKey),
  values: optional(SentenceValues),
  detail: optional(string()),
  violations: optional(array(ViolationBody)),
});
export type Refusal = Infer<typeof Refusal>;
