// A typed slot for an actor that the caller provides (browser, tests, replay): starting it unprovided fails loudly.
import { fromPromise, type NonReducibleUnknown, type PromiseActorLogic } from 'xstate';

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
