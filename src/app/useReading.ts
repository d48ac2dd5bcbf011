// A view's one read-only answer through a screen-owned reading actor (machines/reading.ts; its REST call provided in
// src/api/readActors.ts): read when the view mounts, again when a kept-alive view is shown again (its effects re-mount)
// and, from scratch, when `key` changes (another client). The view never runs the request itself (issue 11).
import { useCallback, useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { liveReadingMachine } from '../../machines/liveReading';
import { readingMachine, selectReadBusy, selectReadFailed, type ReadingSnapshot } from '../../machines/reading';
import { useChangeNotices, type NoticeSource } from './useChangeNotices';
import { useViewActor } from './useViewActor';

/** A reading's logic: the generic one (machines/reading.ts) or the live one (machines/liveReading.ts, same events and answer). */
export type ReadingLogic = typeof readingMachine | typeof liveReadingMachine;

/**
 * `notices`: real-time notices after which the answer is read again (useChangeNotices) — at once by the generic
 * reading, at most every DASHBOARD_LIVE_MS and never over a read on its way by the live one.
 */
export function useReading<T>(logic: ReadingLogic, id: string, options: { input?: unknown; key?: unknown; notices?: NoticeSource } = {}) {
  const actor = useViewActor(logic as typeof readingMachine, { id, input: options.input });
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
  // a live reading's notices while its wait is on its way would change nothing: they are not sent (nor journaled) —
  // the dashboard kept alive in a tab hears every /events message, thousands a second on a busy site
  const live = logic.id === 'liveReading';
  const notice = useCallback(() => (!live ? { type: 'read.reload' } : (actor.getSnapshot().context as { waiting?: boolean }).waiting ? null : { type: 'read.changed' }), [actor, live]);
  useChangeNotices(options.notices ?? null, actor as { send: (e: { type: string }) => void }, notice, { shownAgain: false });
  const reload = useCallback(() => actor.send({ type: 'read.reload' }), [actor]);
  return { output, busy, failed, error, reload };
}
