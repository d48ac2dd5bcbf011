// §1/§4: at each sign-in the shell offers the guided tour; the tour machine shows it unless the operator's
// settings (from the server, with the sign-in) say tourView: false. A restored session (a reload) is not a
// sign-in, so a reload never brings back a tour the operator closed.
import { useEffect } from 'react';
import type { SessionSnapshot } from '../../machines/session';
import { tourFactsOf } from './tourFacts';
import { useSystemActor } from '../hooks/useSystemActor';

/** Was this snapshot change a sign-in (the form's request answered), as opposed to a restore or a client switch? */
export function isSignIn(previous: Pick<SessionSnapshot, 'matches'> | null, next: Pick<SessionSnapshot, 'hasTag'>): boolean {
  return !!previous && previous.matches({ signedOut: 'signingIn' }) && next.hasTag('signedIn');
}

export function useTourAtSignIn(): void {
  const session = useSystemActor('session');
  const tour = useSystemActor('tour');
  useEffect(() => {
    let previous: SessionSnapshot | null = session.getSnapshot();
    const sub = session.subscribe((next) => {
      if (isSignIn(previous, next)) tour.send({ type: 'tour.start', tourView: next.context.settings.tourView, facts: tourFactsOf(next) });
      previous = next;
    });
    return () => sub.unsubscribe();
  }, [session, tour]);
}
