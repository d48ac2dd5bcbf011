// A one-shot resource actor for read-only data a screen shows (dashboard summary, client names): the
// promise runs in an XState promise actor, the view only reads its snapshot. Re-runs when deps change
// and when a kept-alive view becomes visible again (its effects re-mount).
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { createActor, fromPromise, type ActorRefFrom, type PromiseActorLogic } from 'xstate';

export interface TaskState<T> { status: 'idle' | 'active' | 'done' | 'error'; output: T | undefined; error: unknown }

export function useTask<T>(run: (() => Promise<T>) | null, deps: readonly unknown[]): TaskState<T> & { reload: () => void } {
  const [actor, setActor] = useState<ActorRefFrom<PromiseActorLogic<T>> | undefined>(undefined);
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    if (!run) { setActor(undefined); return; }
    const a = createActor(fromPromise<T>(() => run()));
    // a failed answer (a 404 for a record of another client) is this task's result, read from its snapshot:
    // observed here, so XState does not rethrow it as an uncaught error
    a.subscribe({ error: () => {} });
    setActor(a);
    a.start();
    return () => { a.stop(); };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, nonce]);
  // not @xstate/react's useSelector: it throws an errored actor's error into render, which made an expected
  // answer (not found) an uncaught UI error caught by the error boundary and filed in the UI error list
  const subscribe = useCallback((onChange: () => void) => {
    if (!actor) return () => {};
    const sub = actor.subscribe({ next: onChange, error: onChange, complete: onChange });
    return () => sub.unsubscribe();
  }, [actor]);
  const snapshot = useSyncExternalStore(subscribe, () => actor?.getSnapshot());
  const status = snapshot ? snapshot.status : 'idle';
  return {
    status: status === 'stopped' ? 'idle' : status,
    output: snapshot?.status === 'done' ? (snapshot.output as T) : undefined,
    error: snapshot?.status === 'error' ? snapshot.error : undefined,
    reload: () => setNonce((n) => n + 1),
  };
}
