// A view's own actor (a list, a form, a screen's reading or command actor), a child of the console's actor system
// (issue 11): the view asks the system's `views` actor to open it when it mounts and to close it when it unmounts
// (machines/views.ts), so every event it takes reaches the journal, session replay and the Stately inspector
// (`?inspect=1`) with those of the long-lived actors, labelled `<id>#<n>` (`list:identities#3`, `form:doors#7`: two
// open forms of one resource never collide). A journal replay re-runs the lists and forms (machines/journal.ts
// VIEW_MACHINES); a view actor of another machine is recorded, not re-run.
//
// The actor opens when the view is committed (its effect), never during a render: React throws renders away (a
// suspended lazy part, an interrupted transition, StrictMode) and an actor opened there would run — and read the
// network — for nothing. Until then the view reads a stand-in (the same logic with the same input, never started: the
// very first snapshot the actor will have) through a handle whose identity never changes: the events it is sent
// before the actor opens are delivered to it once it does, and its subscribers are moved over to it.
import { use, useEffect, useState } from 'react';
import { useActorRef } from '@xstate/react';
import {
  createActor,
  toObserver,
  type ActorRefFrom,
  type AnyActorLogic,
  type AnyActorRef,
  type AnyEventObject,
  type Observer,
  type SnapshotFrom,
  type Subscription,
} from 'xstate';
import { wiring, type ResourceLogics, type ViewLogicId, type ViewLogics } from './wiring';

export type { LogicIdOf, ViewLogicId } from './wiring';
const openViewActor = (label: string, input: unknown) => wiring().openViewActor(label, input);
const closeViewActor = (id: string) => wiring().closeViewActor(id);
const viewLogic = (label: string) => wiring().viewLogic(label);
/** The view waits (suspends) while its label's logic is still loading (the screens' logic, issue 48). */
const useLogicReady = (label: string) => {
  const ready = wiring().viewLogicReady(label);
  if (ready) use(ready);
};

/** A subscription that follows the handle's target; `moved` tells a snapshot subscriber to read the new target's snapshot. */
interface Moved {
  sub: Subscription;
  attach: (target: AnyActorRef) => Subscription;
  moved?: (target: AnyActorRef) => void;
}

/** The handle a view holds: forwards to the stand-in, then to the open actor (and to a new one after a StrictMode re-run). */
export function createViewHandle(
  logic: AnyActorLogic,
  label: string,
  input: unknown,
  open: (label: string, input: unknown) => AnyActorRef = openViewActor,
  close = closeViewActor,
  carry?: (snapshot: any) => unknown,
) {
  let target: AnyActorRef = createActor(logic, { input });
  let opened = false;
  /** the input of the next opening: after a close, what `carry` keeps of the closed actor's last snapshot */
  let nextInput = input;
  const waiting: AnyEventObject[] = [];
  const moved = new Set<Moved>();
  const follow = (attach: Moved['attach'], moved_?: Moved['moved']): Subscription => {
    const m: Moved = { sub: attach(target), attach, moved: moved_ };
    moved.add(m);
    return {
      unsubscribe: () => {
        m.sub.unsubscribe();
        moved.delete(m);
      },
    };
  };
  const handle = {
    get id() {
      return target.id;
    },
    get sessionId() {
      return target.sessionId;
    },
    get system() {
      return target.system;
    },
    getSnapshot: () => target.getSnapshot(),
    send: (event: AnyEventObject) => {
      if (opened) target.send(event);
      else waiting.push(event);
    },
    subscribe: (next?: Observer<unknown> | ((s: unknown) => void), error?: (e: unknown) => void, complete?: () => void) => {
      const observer = toObserver(next as Observer<unknown>, error, complete);
      return follow(
        (t) => t.subscribe(observer),
        (t) => observer.next?.(t.getSnapshot()),
      );
    },
    on: (type: string, handler: (e: AnyEventObject) => void) => follow((t) => t.on(type, handler)),
    /** The view is committed: the actor opens, takes what it was sent so far, and its subscribers follow it. */
    open() {
      if (opened) return;
      target = open(label, nextInput);
      opened = true;
      for (const m of moved) {
        m.sub.unsubscribe();
        m.sub = m.attach(target);
      }
      // a snapshot subscriber (useSelector) reads the open actor's snapshot, which may have moved on already
      for (const m of [...moved]) m.moved?.(target);
      for (const e of waiting.splice(0)) target.send(e);
    },
    /** The view is gone (or StrictMode's clean-up): the actor stops; a later `open` opens a new one. */
    close() {
      if (!opened) return;
      opened = false;
      if (carry) nextInput = carry(target.getSnapshot());
      close(target.id);
    },
  };
  return handle;
}

export interface ViewActorOptions<L extends AnyActorLogic> {
  input?: unknown;
  /**
   * A kept-alive view hidden and shown again (§2: its effects unmount, so its actor is closed and opened anew): the
   * input the new actor opens with, made of the closed one's last snapshot, so the view comes back as it was left
   * (the live events list: its rows, pause and filter). Without it the new actor opens with `input`.
   */
  carry?: (snapshot: SnapshotFrom<L>) => unknown;
}

/**
 * The view's own actor, by the id its logic is registered under (src/system/logic.ts): a named logic
 * (`'doorCommands'`) or a resource's `list:`, `form:` or `commands:` (`'list:identities'`). The view never brings the
 * logic itself; a label of its own is not needed either (two open actors of one id are numbered `#n`).
 */
export function useViewActor(id: `list:${string}`, options?: { input?: unknown }): ActorRefFrom<ResourceLogics['list']>;
export function useViewActor(id: `form:${string}`, options?: { input?: unknown }): ActorRefFrom<ResourceLogics['form']>;
export function useViewActor(id: `commands:${string}`, options?: { input?: unknown }): ActorRefFrom<ResourceLogics['commands']>;
export function useViewActor<K extends ViewLogicId>(id: K, options?: ViewActorOptions<ViewLogics[K]>): ActorRefFrom<ViewLogics[K]>;
export function useViewActor(id: string, options: ViewActorOptions<AnyActorLogic> = {}): AnyActorRef {
  useLogicReady(id);
  const [handle] = useState(() => {
    const logic = viewLogic(id);
    if (!logic) throw new Error(`No logic is registered under '${id}' (src/system/logic.ts).`);
    return createViewHandle(logic, id, options.input, openViewActor, closeViewActor, options.carry);
  });
  useEffect(() => {
    handle.open();
    return () => handle.close();
  }, [handle]);
  return handle as unknown as AnyActorRef;
}

/**
 * An actor of the view's that stays outside the actor system: its events reach no journal, replay or inspector. Only
 * for logic whose events carry what a journal must not hold (the batch upload takes the spreadsheet itself as an
 * event: people's data, megabytes). Still by id: the view does not bring the logic.
 */
export function usePrivateActor<K extends ViewLogicId>(id: K): ActorRefFrom<ViewLogics[K]> {
  useLogicReady(id);
  const logic = viewLogic(id);
  if (!logic) throw new Error(`No logic is registered under '${id}' (src/system/logic.ts).`);
  return useActorRef(logic) as unknown as ActorRefFrom<ViewLogics[K]>;
}
