// The live events list's provided logic (machines/liveEvents.ts): the stored history, the reads of what was missed,
// and the event socket heard once per animation frame.
import { provided } from '../../machines/defined';
import { fromCallback, fromPromise } from 'xstate';
import type { Event } from '../../contract';
import { liveEventsMachine, MAX_ROWS, type LiveEventsEvent } from '../../machines/liveEvents';
import type { SocketActor } from '../../machines/socket';
import { listEvents } from '../api/endpointsScreens';

/** How many missed events one resync reads at most (the screen shows fewer). */
export const RESYNC_MAX = 1000;
/** Missed events after `afterId`, oldest first (the order live messages arrive in). */
export async function missedEvents(afterId: number, size = RESYNC_MAX): Promise<Event[]> {
  const page = await listEvents({ size, sort: [{ field: 'id', dir: 'desc' }], filters: { afterId: String(afterId) } });
  return [...page.items].reverse();
}

/**
 * The live event socket as the live events list hears it: its `/events` messages, collected outside the actor system
 * and sent on once per animation frame (thousands a second stay one event a frame: one render, one journal line),
 * and its resyncs. Between frames at most 2 × MAX_ROWS wait (the list shows MAX_ROWS).
 */
const listenToEvents = fromCallback<LiveEventsEvent>(({ sendBack, system }) => {
  const socket = system.get('socket.events') as SocketActor | undefined;
  if (!socket) return undefined;
  let waiting: Event[] = [];
  let frame = 0;
  const flush = () => {
    frame = 0;
    const events = waiting;
    waiting = [];
    if (events.length) sendBack({ type: 'events.received', events });
  };
  const messages = socket.on('socket.message', (m) => {
    if (m.destination !== '/events') return;
    waiting.push(m.body as Event); // the socket machine emits a body only once it is valid for its destination
    if (waiting.length > MAX_ROWS * 2) waiting = waiting.slice(-MAX_ROWS);
    if (!frame) frame = requestAnimationFrame(flush);
  });
  const resyncs = socket.on('socket.resynced', (e) => {
    if (e.service === 'event') sendBack({ type: 'socket.resynced' });
  });
  return () => {
    messages.unsubscribe();
    resyncs.unsubscribe();
    if (frame) cancelAnimationFrame(frame);
  };
});

/** /monitor/events: the live list (machines/liveEvents.ts): the newest 100 stored, the live ones, the missed ones. */
export const liveEvents = provided(liveEventsMachine, {
  actors: {
    history: fromPromise<Event[], void>(async () => (await listEvents({ size: 100 })).items),
    readAfter: fromPromise<Event[], number>(({ input }) => missedEvents(input)),
    listen: listenToEvents,
  },
});
