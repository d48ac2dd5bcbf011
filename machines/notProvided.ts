// A typed slot for an actor that the caller provides (browser, tests, replay): starting it unprovided fails loudly.
import { fromPromise, type NonReducibleUnknown, type PromiseActorLogic } from 'xstate';
import type { Sentence } from '../contract/messages';

export function notProvided<TOutput, TInput = NonReducibleUnknown>(name = 'actor'): PromiseActorLogic<TOutput, TInput> {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`${name} was not provided: pass it with machine.provide({ actors })`);
  });
}

/** The message of a rejected actor, whatever the transport threw. */
export function errorText(error: unknown, fallback: string): string {
  if (error && typeof error === 'object' && 'message' in error && typeof (error as { message: unknown }).message === 'string') {
    const m = (error as { message: string }).message.trim();
    if (m) return m;
  }
  if (typeof error === 'string' && error.trim()) return error;
  return fallback;
}

/** What a rejected actor said, kept so the view says it in the operator's language (issue 48): the sentence it
 *  carries (its key and values: src/api/errors.ts ApiError.sentence) when that is the error's own words, else its
 *  text (errorText). The view says either with src/i18n say(), never finding a key by its English. */
export function errorSaid(error: unknown, fallback: string): string | Sentence {
  const text = errorText(error, fallback);
  const s = error && typeof error === 'object' ? (error as { sentence?: Partial<Sentence> }).sentence : undefined;
  return s && typeof s.code === 'string' && s.message === text && s.values && typeof s.values === 'object'
    ? { message: text, code: s.code, values: s.values }
    : text;
}
