// What useChangeNotices wires, apart from React (issue 11): a view's actor is sent its "read again" event on every
// real-time notice it follows and after every (re)connect of a socket that carries one of them (`socket.resynced`,
// the first connection included). A change made between a view's first read and its subscription, or while the
// connection was down, is not heard as a notice: the connection's (re)start is the notice for it. (Until 2026-12-04
// only a reconnect re-read the alarms and events: a dashboard read before the live connection opened, which comes
// after the opening screen since 098b194, kept a visitor signed in meanwhile out of its count.)
import { DESTINATIONS, serviceOfDestination, type RealtimeService } from '../../contract';
import type { SocketActor } from '../../machines/socket';

/** A resource's change notice (`{ resource: 'threatLevels' }`), or real-time destinations (`{ destinations: ['/events'] }`). */
export type NoticeSource = { resource: string } | { destinations: readonly string[] } | null;

/** The event to send, or, for a notice with a body, the event made from it (null: this notice is not for the actor). */
export type NoticeEvent<E> = E | ((body: unknown) => E | null);

/** The event sent after a (re)connect: by default the notice's own event when it needs no body, none otherwise. */
export type ResyncEvent<E> = E | (() => E | null) | null;

export const destinationsOf = (source: NoticeSource): readonly string[] =>
  !source ? [] : 'resource' in source ? [`${DESTINATIONS.changes}/${source.resource}`] : source.destinations;

/** Follows `destinations` on the console's sockets for `send`; answers the unsubscribe. */
export function followNotices<E>(
  sockets: readonly SocketActor[],
  destinations: readonly string[],
  send: (event: E) => void,
  make: () => NoticeEvent<E>,
  resynced: () => ResyncEvent<E> | undefined,
): () => void {
  if (destinations.length === 0) return () => undefined;
  const wanted = new Set(destinations);
  const services = new Set(destinations.map(serviceOfDestination).filter((s): s is RealtimeService => s !== null));
  const heard = (m: { destination: string; body: unknown }) => {
    if (!wanted.has(m.destination)) return;
    const event = make();
    const e = typeof event === 'function' ? (event as (body: unknown) => E | null)(m.body) : event;
    if (e !== null) send(e);
  };
  const again = (r: { service: RealtimeService }) => {
    if (!services.has(r.service)) return;
    const given = resynced();
    const event = given === undefined ? make() : given;
    if (event === null || (given === undefined && typeof event === 'function')) return;
    const e = typeof event === 'function' ? (event as () => E | null)() : event;
    if (e !== null) send(e);
  };
  const subs = sockets.flatMap((s) => [s.on('socket.message', heard), s.on('socket.resynced', again)]);
  return () => {
    for (const s of subs) s.unsubscribe();
  };
}
