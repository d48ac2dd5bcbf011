// What useChangeNotices wires, apart from React (issue 11): a view's actor is sent its "read again" event on every
// real-time notice it follows and after every (re)connect of a socket that carries one of them (`socket.resynced`,
// the first connection included). A change made between a view's first read and its subscription, or while the
// connection was down, is not heard as a notice: the connection's (re)start is the notice for it. (Until 2026-12-04
// only a reconnect re-read the alarms and events: a dashboard read before the live connection opened, which comes
// after the opening screen since 098b194, kept a visitor signed in meanwhile out of its count.)
// On a cold start this is one more read of each view on screen, made when the live connection opens (after the first
// screen is interactive): kept, because a read made before the subscription cannot know what changed after it.
import { DESTINATIONS, serviceOfDestination, type RealtimeService } from '../../contract';
import type { SocketActor } from '../../machines/socket';

/** A resource's change notice (`{ resource: 'threatLevels' }`), or real-time destinations (`{ destinations: ['/events'] }`). */
export type NoticeSource = { resource: string } | { destinations: readonly string[] } | null;

/** The event to send, or, for a notice with a body, the event made from it (null: this notice is not for the actor). */
export type NoticeEvent<E> = E | ((body: unknown) => E | null);

export const destinationsOf = (source: NoticeSource): readonly string[] =>
  !source ? [] : 'resource' in source ? [`${DESTINATIONS.changes}/${source.resource}`] : source.destinations;

/**
 * Follows `destinations` on the console's sockets: `onNotice` makes the event a notice's body sends, `onResync` the
 * event a (re)connect of a socket carrying one of them sends (null: none). Answers the unsubscribe.
 */
export function followNotices<E>(
  sockets: readonly SocketActor[],
  destinations: readonly string[],
  send: (event: E) => void,
  onNotice: (body: unknown) => E | null,
  onResync: () => E | null,
): () => void {
  if (destinations.length === 0) return () => undefined;
  const wanted = new Set(destinations);
  const services = new Set(destinations.map(serviceOfDestination).filter((s): s is RealtimeService => s !== null));
  const deliver = (e: E | null) => {
    if (e !== null) send(e);
  };
  const subs = sockets.flatMap((s) => [
    s.on('socket.message', (m) => wanted.has(m.destination) && deliver(onNotice(m.body))),
    s.on('socket.resynced', (r) => services.has(r.service) && deliver(onResync())),
  ]);
  return () => {
    for (const s of subs) s.unsubscribe();
  };
}
