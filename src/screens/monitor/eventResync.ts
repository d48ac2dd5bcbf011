// The events screen's gap fill: after every reconnect (and wake from sleep) the event socket says it resynced;
// the events stored while the console was not listening are read from REST (after the newest id it shows), so
// the live list has no hole. Ids are monotonic on the server (append-only, persisted before publishing). The read is
// the view's `missedEventsCommands` actor (src/api/readActors.ts): one at a time, and a resync that comes while one is
// on its way reads again after it (from the newest id then).
import { useEffect, useRef } from 'react';
import type { Event } from '../../../contract';
import type { CommandSnapshot } from '../../../machines/command';
import type { SocketActor } from '../../../machines/socket';
import { missedEventsCommands } from '../../api/readActors';
import { useViewActor } from '../../app/useViewActor';

export function useEventResync(socket: SocketActor, newestId: () => number | null, onMissed: (events: Event[]) => void) {
  const cb = useRef({ newestId, onMissed });
  cb.current = { newestId, onMissed };
  const reader = useViewActor(missedEventsCommands, { id: 'events:resync' });
  useEffect(() => {
    let again = false;
    const fill = () => {
      const after = cb.current.newestId();
      if (after === null) return; // nothing shown yet: the history load covers it
      if (reader.getSnapshot().hasTag('busy')) { again = true; return; }
      reader.send({ type: 'command.run', command: String(after) });
    };
    // a failed read waits for the next resync; a resync heard meanwhile reads again once this read is over
    const settled = reader.subscribe((s: CommandSnapshot) => { if (again && !s.hasTag('busy')) { again = false; fill(); } });
    const answers = reader.on('command.done', ({ result }) => { const events = result as Event[]; if (events.length) cb.current.onMissed(events); });
    // a kept-alive screen shown again (its effects re-mount) missed what arrived while it was hidden
    fill();
    const sub = socket.on('socket.resynced', (e) => { if (e.service === 'event') fill(); });
    return () => { sub.unsubscribe(); settled.unsubscribe(); answers.unsubscribe(); };
  }, [socket, reader]);
}
