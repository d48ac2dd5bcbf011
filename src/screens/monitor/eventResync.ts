// The events screen's gap fill: after every reconnect (and wake from sleep) the event socket says it resynced; the
// events stored while the console was not listening are read after the newest id the screen shows, so the live list
// has no hole. The reads run in the screen's gap fill actor (machines/gapFill.ts, its read in src/system/readActors.ts),
// side by side; the view only says when and after which id, and takes what is found.
import { useEffect, useRef } from 'react';
import type { Event } from '../../../contract';
import type { SocketActor } from '../../../machines/socket';
import { useViewActor } from '../../hooks/useViewActor';

/** `onNoHistory`: a resync found nothing shown yet — the screen reads its history again if that load had failed (the
 *  server went away while it was on its way: nothing else would ever fill the list). */
export function useEventResync(socket: SocketActor, newestId: () => number | null, onMissed: (events: Event[]) => void, onNoHistory?: () => void) {
  const gaps = useViewActor('eventGapFill');
  const cb = useRef({ newestId, onMissed, onNoHistory });
  cb.current = { newestId, onMissed, onNoHistory };
  useEffect(() => {
    const sub = gaps.on('gap.filled', ({ events }) => cb.current.onMissed(events));
    return () => sub.unsubscribe();
  }, [gaps]);
  useEffect(() => {
    const fill = () => {
      const afterId = cb.current.newestId();
      if (afterId !== null) gaps.send({ type: 'gap.fill', afterId });
      else cb.current.onNoHistory?.(); // nothing shown yet: the history load covers it, or is read again if it failed
    };
    // a kept-alive screen shown again (its effects re-mount) missed what arrived while it was hidden
    fill();
    const sub = socket.on('socket.resynced', (e) => {
      if (e.service === 'event') fill();
    });
    return () => sub.unsubscribe();
  }, [socket, gaps]);
}
