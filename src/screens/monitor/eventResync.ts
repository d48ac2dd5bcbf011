// The events screen's gap fill: after every reconnect (and wake from sleep) the event socket says it resynced;
// the events stored while the console was not listening are read from REST (after the newest id it shows), so
// the live list has no hole. Ids are monotonic on the server (append-only, persisted before publishing).
import { useEffect, useRef } from 'react';
import type { Event } from '../../../contract';
import type { SocketActor } from '../../../machines/socket';
import { listEvents } from '../../api/endpoints';

/** How many missed events one resync reads at most (the screen shows fewer). */
export const RESYNC_MAX = 1000;

/** Missed events after `afterId`, oldest first (the order live messages arrive in). */
export async function missedEvents(afterId: number, size = RESYNC_MAX): Promise<Event[]> {
  const page = await listEvents({ size, sort: [{ field: 'id', dir: 'desc' }], filters: { afterId: String(afterId) } });
  return [...page.items].reverse();
}

export function useEventResync(socket: SocketActor, newestId: () => number | null, onMissed: (events: Event[]) => void) {
  const cb = useRef({ newestId, onMissed });
  cb.current = { newestId, onMissed };
  useEffect(() => {
    let alive = true;
    const fill = () => {
      const after = cb.current.newestId();
      if (after === null) return; // nothing shown yet: the history load covers it
      missedEvents(after).then((events) => { if (alive && events.length) cb.current.onMissed(events); }, () => { /* the next resync tries again */ });
    };
    // a kept-alive screen shown again (its effects re-mount) missed what arrived while it was hidden
    fill();
    const sub = socket.on('socket.resynced', (e) => { if (e.service === 'event') fill(); });
    return () => { alive = false; sub.unsubscribe(); };
  }, [socket]);
}
