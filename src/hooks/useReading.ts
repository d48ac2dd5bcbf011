// A view's one read-only answer through a screen-owned reading actor (machines/reading.ts; its REST call provided in
// src/system/logic.ts, by id): read when the view mounts, again when a kept-alive view is shown again (its effects re-mount)
// and, from scratch, when `key` changes (another client). The view never runs the request itself (issue 11).
import { useCallback, useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { readingMachine, readingNotice, selectReadBusy, selectReadFailed, type ReadingSnapshot } from '../../machines/reading';
import { useChangeNotices, type NoticeSource } from './useChangeNotices';
import { useViewActor } from './useViewActor';
import type { ActorRefFrom } from 'xstate';
import type { LogicIdOf } from './wiring';

/**
 * `notices`: real-time notices after which the answer is read again (useChangeNotices) — at once, or with `live` at
 * most every DASHBOARD_LIVE_MS and never over a read on its way (`read.changed`, machines/reading.ts); so is every
 * (re)connect of the socket that carries them.
 */
export function useReading<T>(id: LogicIdOf<typeof readingMachine>, options: { input?: unknown; key?: unknown; notices?: NoticeSource; live?: boolean } = {}) {
  const actor = useViewActor(id, { input: options.input }) as unknown as ActorRefFrom<typeof readingMachine>;
  const output = useSelector(actor, (s: ReadingSnapshot) => s.context.output) as T | null;
  const busy = useSelector(actor, selectReadBusy);
  const failed = useSelector(actor, selectReadFailed);
  const error = useSelector(actor, (s: ReadingSnapshot) => s.context.error);
  const shown = useRef(false);
  const lastKey = useRef(options.key);
  useEffect(() => {
    if (shown.current) actor.send(lastKey.current === options.key ? { type: 'read.reload' } : { type: 'read.restart', input: options.input });
    shown.current = true;
    lastKey.current = options.key;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actor, options.key]);
  // a live reading's notices while its wait is on its way would change nothing: they are not sent (nor journaled)
  const live = options.live ?? false;
  const notice = useCallback(() => readingNotice(actor.getSnapshot(), live), [actor, live]);
  useChangeNotices(options.notices ?? null, actor as { send: (e: { type: string }) => void }, notice, { shownAgain: false, resynced: notice });
  const reload = useCallback(() => actor.send({ type: 'read.reload' }), [actor]);
  return { output, busy, failed, error, reload };
}
