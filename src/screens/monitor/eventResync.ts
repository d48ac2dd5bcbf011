// The events screen's gap fill: after every reconnect (and wake from sleep) the event socket says it resynced;
// the events stored while the console was not listening are read from REST (after the newest id it shows), so
// the live list has no hole. Ids are monotonic on the server (append-only, persisted before publishing). Each read is
// an actor of `missedEventsLogic` (src/api/readActors.ts), one per resync; the view only starts it and takes its answer.
import { useEffect, useRef } from 'react';
import { createActor, type AnyActorRef } from 'xstate';
import type { Event } from '../../../contract';
import type { SocketActor } from '../../../machines/socket';
import { missedEventsLogic } from '../../api/readActors';

export function useEventResync(socket: SocketActor, newestId: () => number | null, onMissed: (events: Event[]) => void) {
  const cb = useRef({ newestId, onMissed });
  cb.current = { newestId, onMissed };
  useEffect(() => {
    const reads = new Set<AnyActorRef>();
    const fill = () => {
      const after = cb.current.newestId();
      if (after === null) return; // nothing shown yet: the history load covers it
      const read = createActor(missedEventsLogic, { input: after });
      reads.add(read);
      read.subscribe({
        complete: () => { reads.delete(read); const events = read.getSnapshot().output ?? []; if (events.length) cb.current.onMissed(events); },
        error: () => { reads.delete(read); /* the next resync tries again */ },
      });
      read.start();
    };
    // a kept-alive screen shown again (its effects re-mount) missed what arrived while it was hidden
    fill();
    const sub = socket.on('socket.resynced', (e) => { if (e.service === 'event') fill(); });
    return () => { sub.unsubscribe(); for (const r of reads) r.stop(); };
  }, [socket]);
}
