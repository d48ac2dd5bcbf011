// Paths from a machine's own graph, driven through the real console in chromium against the real server (issue 51:
// what `@xstate/test` is for). The model is the console's real machine (pure `transition`s of it) joined to a small
// model of the world it talks to: what the server answers each invoked actor, and what the operator or another
// console does. @xstate/graph walks that joined logic; every edge between two settled states it finds becomes a path
// (the shortest way to the edge's source, then the edge), and the spec plays each path in the browser: each step is
// done as a person would (a click, or another console's request), then the screen is checked against the selectors of
// the model's state. A screen that shows something the machine's state does not say fails, whichever path reached it.
import { getAdjacencyMap, getShortestPaths } from '@xstate/graph';
import { fromTransition, initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type SnapshotFrom } from 'xstate';

export interface ConsoleWorld<M extends AnyStateMachine, W> {
  machine: M;
  input?: unknown;
  /** the server's state when each path starts (the spec puts the real server there first) */
  world: W;
  /** the server's answer to the invoked actor `id` while the machine is in `snapshot`, and the world after it */
  answer: (id: string, snapshot: SnapshotFrom<M>, world: W) => { output: unknown; world: W } | { error: unknown; world: W };
  /** what a person can do, by name: a change of the world and/or the event the console hears; null where it is not offered */
  steps: Record<string, (snapshot: SnapshotFrom<M>, world: W) => { world?: W; event?: EventObject } | null>;
  /** what tells two settled states apart for the screen (and so for the paths) */
  serialize: (snapshot: SnapshotFrom<M>, world: W) => string;
}

export interface ModelStep<M extends AnyStateMachine, W> {
  step: string;
  snapshot: SnapshotFrom<M>;
  world: W;
}
export interface ModelPath<M extends AnyStateMachine, W> {
  description: string;
  steps: ModelStep<M, W>[];
}

type Joined<M extends AnyStateMachine, W> = { snapshot: SnapshotFrom<M>; world: W };

/** Every invoked actor answered by the world, until the machine waits for a person again. */
function settle<M extends AnyStateMachine, W>(model: ConsoleWorld<M, W>, at: Joined<M, W>): Joined<M, W> {
  let { snapshot, world } = at;
  for (let i = 0; i < 20; i++) {
    const id = Object.keys((snapshot as AnyMachineSnapshot).children)[0];
    if (id === undefined) return { snapshot, world };
    const a = model.answer(id, snapshot, world);
    world = a.world;
    const event =
      'error' in a ? { type: `xstate.error.actor.${id}`, error: a.error, actorId: id } : { type: `xstate.done.actor.${id}`, output: a.output, actorId: id };
    snapshot = transition(model.machine, snapshot as never, event as never)[0] as SnapshotFrom<M>;
  }
  throw new Error(`the machine never settled: ${JSON.stringify((snapshot as AnyMachineSnapshot).value)}`);
}

function joinedLogic<M extends AnyStateMachine, W>(model: ConsoleWorld<M, W>) {
  const start = settle(model, { snapshot: initialTransition(model.machine, model.input as never)[0] as SnapshotFrom<M>, world: model.world });
  return fromTransition((at: Joined<M, W>, event: { type: string }) => {
    const made = model.steps[event.type]?.(at.snapshot, at.world);
    if (!made) return at;
    const world = made.world ?? at.world;
    const snapshot = made.event ? (transition(model.machine, at.snapshot as never, made.event as never)[0] as SnapshotFrom<M>) : at.snapshot;
    return settle(model, { snapshot, world });
  }, start);
}

/** One path per edge between two different settled states of the joined graph, each from the start. */
export function consolePaths<M extends AnyStateMachine, W>(model: ConsoleWorld<M, W>): ModelPath<M, W>[] {
  const logic = joinedLogic(model);
  const key = (s: { context: Joined<M, W> }) => model.serialize(s.context.snapshot, s.context.world);
  const options = { events: Object.keys(model.steps).map((type) => ({ type })), serializeState: key as never, limit: 1000 };
  const shortest = getShortestPaths(logic, options);
  const adjacency = getAdjacencyMap(logic, options) as unknown as Record<
    string,
    { transitions: Record<string, { event: { type: string }; state: { context: Joined<M, W> } }> }
  >;
  const paths: ModelPath<M, W>[] = [];
  for (const to of shortest) {
    const from = key(to.state as never);
    const before = (to.steps as Array<{ event: { type: string }; state: { context: Joined<M, W> } }>)
      .filter((s) => s.event.type !== 'xstate.init')
      .map((s) => ({ step: s.event.type, snapshot: s.state.context.snapshot, world: s.state.context.world }));
    for (const { event, state } of Object.values(adjacency[from]?.transitions ?? {})) {
      const next = key(state);
      if (next === from) continue; // not offered there, or nothing a person could see changes
      const steps = [...before, { step: event.type, snapshot: state.context.snapshot, world: state.context.world }];
      paths.push({ description: `${from} ⟶ ${event.type} ⟶ ${next}`, steps });
    }
  }
  return paths;
}

/** The settled state the console starts in (what the screen shows before any step). */
export function consoleStart<M extends AnyStateMachine, W>(model: ConsoleWorld<M, W>): ModelStep<M, W> {
  const s = settle(model, { snapshot: initialTransition(model.machine, model.input as never)[0] as SnapshotFrom<M>, world: model.world });
  return { step: 'start', snapshot: s.snapshot, world: s.world };
}
