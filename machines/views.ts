// The views' own actors as children of the console's actor system (issue 11). A view that needs an actor of its own
// (a list, a form, a screen's reading or command actor: src/app/useViewActor.ts) asks `views` to open one when it
// mounts and to close it when it unmounts; `views` spawns it as its child under a systemId equal to its id
// (`list:identities#3`: the view's label, numbered so two open forms of one resource never collide), so its events reach
// the journal, session replay and the Stately inspector with the long-lived actors', the view finds it with
// `system.get(id)`, and it stops with the system.
//
// The logic of an id comes from outside (`resolve`): in the browser the view registers the logic it brought
// (src/system/browser.ts); in a replay, the list and form machines with their slots inert (machines/journal.ts), so a
// recorded `view.open` re-runs the same machine from the recorded input and an id it cannot resolve opens nothing
// (that view's events are recorded, not re-run).
import { enqueueActions, type AnyActorLogic, type AnyActorRef } from 'xstate';
import { defined, lazySetup } from './defined';

export type ViewsEvent = { type: 'view.open'; id: string; input?: unknown } | { type: 'view.close'; id: string };

/** The logic of a view's actor by its id, or undefined when there is none to run. */
export type ResolveView = (id: string) => AnyActorLogic | undefined;

/** A view actor's id: its label and a number (`list:identities#3`). */
export const VIEW_ID = /^[A-Za-z][^#\s]{0,79}#\d{1,9}$/;

const nothing: ResolveView = () => undefined;

export function createViewsMachine(resolve: ResolveView = nothing) {
  return lazySetup({
    types: { events: {} as ViewsEvent },
  }).createMachine({
    id: 'views',
    on: {
      'view.open': {
        actions: enqueueActions(({ enqueue, event, self }) => {
          // an id already open (a view cannot open twice) or malformed is ignored: the view finds nothing under it
          if (!VIEW_ID.test(event.id) || self.getSnapshot().children[event.id]) return;
          const logic = resolve(event.id);
          // (the children's ids are not known statically: spawnChild's typing allows none)
          if (logic) enqueue.spawnChild(logic, { id: event.id, systemId: event.id, input: event.input } as { systemId: string; input: unknown });
        }),
      },
      'view.close': { actions: enqueueActions(({ enqueue, event }) => enqueue.stopChild(event.id)) },
    },
  });
}

/** `views` with nothing to open: the shape the root machine is set up with (the caller provides the real one). */
export const viewsMachine = defined(() => createViewsMachine());

/** The open view actors' ids. */
export const selectOpenViews = (s: { children: Record<string, AnyActorRef | undefined> }): string[] => Object.keys(s.children);
