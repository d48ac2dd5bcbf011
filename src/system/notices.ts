// Toasts the shell shows (Blueprint OverlayToaster): machines and the api push here through injected actions.
// A plain list of listeners (issue 48: an rxjs Subject was rxjs's 2.5 KB in the console's start for this alone).
import type { Notice } from '../api/errors';

export type { Notice, Intent } from '../api/errors';
type Listener = (notice: Notice) => unknown;
const listeners = new Set<{ listener: Listener }>();
/** The notices as they are pushed: each subscriber hears every notice pushed after it subscribed, until it unsubscribes. */
export const notices$ = {
  subscribe(listener: Listener): { unsubscribe(): void } {
    const entry = { listener }; // one entry a subscription: the same function subscribed twice hears each notice twice
    listeners.add(entry);
    return { unsubscribe: () => void listeners.delete(entry) };
  },
};
export function notify(notice: Notice): void {
  for (const entry of [...listeners])
    try {
      void entry.listener(notice);
    } catch (e) {
      // one listener that throws neither stops the others nor the machine that pushed the notice (as rxjs reports it)
      setTimeout(() => {
        throw e;
      });
    }
}
