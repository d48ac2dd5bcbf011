// What the server said beside its English (issue 48): a refusal's or violation's key and values (contract/messages.ts),
// kept by the English it came with as the transport reads the answer (src/api/errors.ts), so a view that holds the
// message as text (a machine's `error`) is said in the operator's language by key, never by parsing the English
// (src/i18n/index.ts say). No imports: the transport takes it in without the dictionaries.
// Every machine that keeps a refusal keeps its sentence (machines/notProvided.ts errorSaid: i18n.test.ts fails on one
// that keeps the English), so this is only a fallback for a refusal some view might still hold as text: none known.
import type { Sentence } from '../../contract/messages';

const said = new Map<string, Sentence>();

/** Notes that `sentence.message` is that sentence (its key and values); the last 500 are kept. */
export function noteSentence(sentence: Sentence): void {
  if (said.size >= 500) said.delete(said.keys().next().value!);
  said.set(sentence.message, sentence);
}
/** The sentence a message was sent as, if the server gave its key. */
export const sentenceOf = (message: string): Sentence | undefined => said.get(message);

/** Notes the sentences of a refusal's body: its message and each violation that carries a key. */
export function noteRefusal(body: unknown): void {
  if (!body || typeof body !== 'object') return;
  const b = body as { message?: unknown; code?: unknown; values?: unknown; violations?: unknown };
  const note = (x: { message?: unknown; code?: unknown; values?: unknown }) => {
    if (typeof x.message === 'string' && typeof x.code === 'string' && x.values && typeof x.values === 'object')
      noteSentence({ message: x.message, code: x.code, values: x.values as Sentence['values'] });
  };
  note(b);
  if (Array.isArray(b.violations)) for (const v of b.violations) if (v && typeof v === 'object') note(v as typeof b);
}
