// A view's own actor (a list, a form) observed like the console's actor system (issue 11): every event it takes
// reaches the journal and the Stately inspector (`?inspect=1`) with those of the long-lived actors, labelled by `id`
// (`list:identities`, `form:doors`). It lives as long as the view (useActorRef stops it when the view unmounts; an
// actor with the system's root as its parent could not be stopped by the view, so it runs as its own root with the
// system's observer); it has no systemId, so two tabs of one list never collide. A journal replay re-runs the lists
// and forms (machines/journal.ts VIEW_MACHINES: each recorded `xstate.init` of `list:…` / `form:…` starts the same
// machine with the recorded input, its network answers come from the journal); a view actor of another machine is
// recorded, not re-run.
import type { ActorOptions, AnyActorLogic } from 'xstate';
import { useActorRef } from '@xstate/react';
import { viewInspect } from '../system/browser';

export function useViewActor<TLogic extends AnyActorLogic>(logic: TLogic, options: Omit<ActorOptions<TLogic>, 'parent' | 'systemId' | 'inspect'> & { id: string }) {
  return useActorRef(logic, { ...options, inspect: viewInspect() } as ActorOptions<TLogic>);
}
