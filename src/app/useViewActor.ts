// A view's own actor (a list, a form, a command runner) as a member of the console's actor system (issue 11): created
// with the system's root as its parent, so every event it takes reaches the journal and the Stately inspector
// (`?inspect=1`) like those of the long-lived actors, labelled by `id` (`list:identities`, `form:doors`). It lives
// as long as the view (stopped when it unmounts); it has no systemId, so two tabs of one list never collide, and a
// journal replay treats it like an implementation actor (its events are recorded, not re-run).
import type { ActorOptions, AnyActorLogic } from 'xstate';
import { useActorRef } from '@xstate/react';
import { getSystem } from '../system/browser';

export function useViewActor<TLogic extends AnyActorLogic>(logic: TLogic, options: Omit<ActorOptions<TLogic>, 'parent' | 'systemId'> & { id: string }) {
  return useActorRef(logic, { ...options, parent: getSystem() } as ActorOptions<TLogic>);
}
