// A one-shot resource actor for read-only data a screen shows (dashboard summary, client names): the
// promise runs in an XState promise actor, the view only reads its snapshot. Re-runs when deps change
// and when a kept-alive view becomes visible again (its effects re-mount).
import { useEffect, useState } from 'react';
import { useSelector } from '@xstate/react';
import { createActor, fromPromise, type ActorRefFrom, type PromiseActorLogic } from 'xstate';

export interface TaskState<T> { status: 'idle' | 'active' | 'done' | 'error'; output: T | undefined; error: unknown }

export function useTask<T>(run: (() => Promise<T>) | null, deps: readonly unknown[]): TaskState<T> & { reload: () => void } {
  const [actor, setActor] = useState<ActorRefFrom<PromiseActorLogic<T>> | undefined>(undefined);
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    if (!run) { setActor(undefined); return; }
    const a = createActor(fromPromise<T>(() => run()));
    setActor(a);
    a.start();
    return () => { a.stop(); };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, nonce]);
  const status = useSelector(actor, (s) => (s ? s.status : 'idle')) as 'idle' | 'active' | 'done' | 'error' | 'stopped';
  const output = useSelector(actor, (s) => (s && s.status === 'done' ? (s.output as T) : undefined));
  const error = useSelector(actor, (s) => (s && s.status === 'error' ? s.error : undefined));
  return { status: status === 'stopped' ? 'idle' : status, output, error, reload: () => setNonce((n) => n + 1) };
}
