// "Read again" for a view's own actor (issue 11): the view names what it follows and the event its actor takes, and
// this hook sends it — when a real-time notice arrives (a resource's change notice `/changes/{resource}`, or any
// destination, e.g. `/dynamic-qr` with its body), after every (re)connect of a socket that carries what it follows
// (src/hooks/changeNotices.ts: what changed before the subscription or while disconnected sent no notice), and when a
// kept-alive view is shown again (its effects re-mount; notices that came while it was hidden were missed). No view
// routes socket messages between actors by hand.
import { useEffect, useRef } from 'react';
import { useSystemActor } from './useSystemActor';
import { destinationsOf, followNotices, type NoticeEvent, type NoticeSource } from './changeNotices';

export type { NoticeEvent, NoticeSource } from './changeNotices';

/**
 * Sends `event` to `actor` on every notice of `source` (heard on the console's three sockets, as the shell's
 * `gatehouse:` document events are), after a (re)connect of a socket carrying it (`resynced` makes that event, null
 * for none: by default `event` when it needs no body, none otherwise) and, unless `shownAgain` is false, when a
 * kept-alive view is shown again.
 */
export function useChangeNotices<E>(
  source: NoticeSource,
  actor: { send: (event: E) => void },
  event: NoticeEvent<E>,
  options: { shownAgain?: boolean; resynced?: () => E | null } = {},
) {
  const central = useSystemActor('socket.central');
  const events = useSystemActor('socket.events');
  const visitor = useSystemActor('socket.visitor');
  const make = useRef(event);
  make.current = event;
  const resynced = useRef(options.resynced);
  resynced.current = options.resynced;
  const key = destinationsOf(source).join('\n');
  useEffect(
    () =>
      followNotices(
        [central, events, visitor],
        key ? key.split('\n') : [],
        (e: E) => actor.send(e),
        (body) => (typeof make.current === 'function' ? (make.current as (body: unknown) => E | null)(body) : make.current),
        () => (resynced.current ? resynced.current() : typeof make.current === 'function' ? null : make.current),
      ),
    [key, actor, central, events, visitor],
  );
  const shownAgain = options.shownAgain ?? true;
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current && shownAgain && typeof make.current !== 'function') actor.send(make.current);
    shown.current = true;
  }, [actor, shownAgain]);
}
