// A view's one read-only answer through a screen-owned reading actor (machines/reading.ts; its REST call provided in
// src/api/readActors.ts): read when the view mounts, again when a kept-alive view is shown again (its effects re-mount)
// and, from scratch, when `key` changes (another client). The view never runs the request itself (issue 11).
import { useCallback, useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { readingMachine, selectReadBusy, selectReadFailed, type ReadingSnapshot } from '../../machines/reading';
import { useViewActor } from './useViewActor';

export function useReading<T>(logic: typeof readingMachine, id: string, options: { input?: unknown; key?: unknown } = {}) {
  const actor = useViewActor(logic, { id, input: options.input });
  const output = useSelector(actor, (s: ReadingSnapshot) => s.context.output) as T | null;
  const busy = useSelector(actor, selectReadBusy);
  const failed = useSelector(actor, selectReadFailed);
  const shown = useRef(false);
  const lastKey = useRef(options.key);
  useEffect(() => {
    if (shown.current) actor.send(lastKey.current === options.key ? { type: 'read.reload' } : { type: 'read.restart', input: options.input });
    shown.current = true;
    lastKey.current = options.key;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actor, options.key]);
  const reload = useCallback(() => actor.send({ type: 'read.reload' }), [actor]);
  return { output, busy, failed, reload };
}
