// "Read again" for a view's own actor (issue 11): the view names what it follows and the event its actor takes, and
// this hook sends it — when a real-time notice arrives (a resource's change notice `/changes/{resource}`, or any
// destination, e.g. `/dynamic-qr` with its body), and when a kept-alive view is shown again (its effects re-mount;
// notices that came while it was hidden were missed). No view routes socket messages between actors by hand.
import { useEffect, useRef } from 'react';
import { DESTINATIONS } from '../../contract';
import { useSystemActor } from './useSystemActor';

/** A resource's change notice (`{ resource: 'threatLevels' }`), or real-time destinations (`{ destinations: ['/events'] }`). */
export type NoticeSource = { resource: string } | { destinations: readonly string[] } | null;

/** The event to send, or, for a notice with a body, the event made from it (null: this notice is not for the actor). */
export type NoticeEvent<E> = E | ((body: unknown) => E | null);

const destinationsOf = (source: NoticeSource): readonly string[] =>
  !source ? [] : 'resource' in source ? [`${DESTINATIONS.changes}/${source.resource}`] : source.destinations;

/**
 * Sends `event` to `actor` on every notice of `source` (heard on the console's three sockets, as the shell's
 * `gatehouse:` document events are) and, unless `shownAgain` is false, when a kept-alive view is shown again.
 */
export function useChangeNotices<E>(source: NoticeSource, actor: { send: (event: E) => void }, event: NoticeEvent<E>, options: { shownAgain?: boolean } = {}) {
  const central = useSystemActor('socket.central');
  const events = useSystemActor('socket.events');
  const visitor = useSystemActor('socket.visitor');
  const make = useRef(event);
  make.current = event;
  const key = destinationsOf(source).join('\n');
  useEffect(() => {
    if (!key) return undefined;
    const wanted = new Set(key.split('\n'));
    const heard = (m: { destination: string; body: unknown }) => {
      if (!wanted.has(m.destination)) return;
      const e = typeof make.current === 'function' ? (make.current as (body: unknown) => E | null)(m.body) : make.current;
      if (e !== null) actor.send(e);
    };
    const subs = [central, events, visitor].map((s) => s.on('socket.message', heard));
    return () => {
      for (const s of subs) s.unsubscribe();
    };
  }, [key, actor, central, events, visitor]);
  const shownAgain = options.shownAgain ?? true;
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current && shownAgain && typeof make.current !== 'function') actor.send(make.current);
    shown.current = true;
  }, [actor, shownAgain]);
}
