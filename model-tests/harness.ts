// Shared pieces of the model-based tests: controllable fake actors, and one test path per graph edge.
import {
  SimulatedClock,
  createActor,
  fromPromise,
  initialTransition,
  transition,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type PromiseActorLogic,
  type SnapshotFrom,
} from 'xstate';
import { expect } from 'vitest';
import type { TestModel } from '@xstate/graph';

/** Let promise callbacks and the actor's resulting transitions run. */
export const flush = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * Fake actors whose promises the test settles by invoke id: the model's `xstate.done.actor.<id>` event becomes
 * `settle(id, 'done', output)` on the real actor. An invocation stopped by a transition drops out.
 */
export function createControls() {
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void; input: unknown }>();
  const inputs: Array<{ id: string; input: unknown }> = [];
  function logic<TOutput, TInput = void>(): PromiseActorLogic<TOutput, TInput> {
    return fromPromise<TOutput, TInput>(
      ({ self, input, signal }) =>
        new Promise<TOutput>((resolve, reject) => {
          const entry = { resolve: resolve as (v: unknown) => void, reject, input };
          pending.set(self.id, entry);
          inputs.push({ id: self.id, input });
          signal.addEventListener('abort', () => {
            if (pending.get(self.id) === entry) pending.delete(self.id);
          });
        }),
    );
  }
  async function settle(id: string, kind: 'done' | 'error', value: unknown): Promise<boolean> {
    const p = pending.get(id);
    if (!p) return false;
    pending.delete(id);
    if (kind === 'done') p.resolve(value);
    else p.reject(value);
    await flush();
    return true;
  }
  return { logic, settle, pending, inputs };
}

/** Executors for every `xstate.done.actor.*` / `xstate.error.actor.*` event of the model. */
export function actorEventExecutors(events: ReadonlyArray<{ type: string }>, controls: ReturnType<typeof createControls>) {
  const out: Record<string, (step: { event: any }) => Promise<void>> = {};
  for (const { type } of events) {
    const done = /^xstate\.done\.actor\.(.+)$/.exec(type);
    const error = /^xstate\.error\.actor\.(.+)$/.exec(type);
    if (done)
      out[type] = async ({ event }) => {
        await controls.settle(done[1], 'done', event.output);
      };
    if (error)
      out[type] = async ({ event }) => {
        await controls.settle(error[1], 'error', event.error);
      };
  }
  return out;
}

export interface EdgePath<M extends AnyStateMachine> {
  description: string;
  path: { state: SnapshotFrom<M>; steps: Array<{ event: any; state: SnapshotFrom<M> }>; weight: number };
  /** Per step, the named effects (provided actions) the model predicts, e.g. ['storeSession']. */
  effects: Array<Array<{ type: string; params: unknown }>>;
}

/**
 * Every edge of the graph: the shortest path to each reachable state, followed by each event the model
 * offers there. Covers every reachable state and every transition (including events a state ignores).
 * The serialisation only bounds the traversal; the expected snapshot of every step is recomputed by
 * stepping the model along this exact path, so the real actor is compared with the full context.
 */
export function edgePaths<M extends AnyStateMachine>(
  model: TestModel<any, any, any>,
  machine: M,
  serialize: (s: SnapshotFrom<M>) => string,
  effectNames: readonly string[],
  input?: unknown,
): EdgePath<M>[] {
  const shortest = model.getShortestPaths({ allowDuplicatePaths: true });
  const adjacency = model.getAdjacencyMap() as unknown as Record<string, { transitions: Record<string, { event: any; state: SnapshotFrom<M> }> }>;
  const named = (actions: Array<{ type: string; params?: unknown }>) =>
    actions.filter((a) => effectNames.includes(a.type)).map((a) => ({ type: a.type, params: a.params }));
  const out: EdgePath<M>[] = [];
  const seen = new Set<string>();
  for (const p of shortest) {
    const key = serialize(p.state as SnapshotFrom<M>);
    if (seen.has(key)) continue;
    seen.add(key);
    const node = adjacency[key];
    if (!node) throw new Error(`no adjacency for ${key}`);
    for (const [eventKey, { event }] of Object.entries(node.transitions)) {
      const events = [...(p.steps as any[]).map((st) => st.event), event];
      const [initial, initialActions] = initialTransition(machine, input as any);
      let current = initial as SnapshotFrom<M>;
      const steps: Array<{ event: any; state: SnapshotFrom<M> }> = [];
      const effects: EdgePath<M>['effects'] = [];
      for (const e of events) {
        if (e.type === 'xstate.init') {
          steps.push({ event: e, state: current });
          effects.push(named(initialActions as any));
          continue;
        }
        const [next, actions] = transition(machine, current as any, e);
        current = next as SnapshotFrom<M>;
        steps.push({ event: e, state: current });
        effects.push(named(actions as any));
      }
      out.push({
        description: `${key} ⟶ ${eventKey.slice(0, 90)} ⟶ ${serialize(current)}`,
        path: { state: current, steps, weight: steps.length },
        effects,
      });
    }
  }
  return out;
}

/** The model offers an invoked actor's done/error events only while that actor runs. */
export const onlyInvoked = (events: any[]) => (s: { children: Record<string, unknown> }) =>
  events.filter((e) => {
    const m = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type);
    return m ? m[1] in s.children : true;
  });

/**
 * Runs one edge path on the real machine with every invoked actor replaced by a controllable fake, comparing
 * value, context and tags after each step; `extra` checks emitted events or actor inputs per step.
 */
export async function drive<M extends AnyStateMachine>(
  model: TestModel<any, any, any>,
  machine: M,
  input: unknown,
  events: any[],
  { path }: EdgePath<M>,
  extra?: (actor: any, step: number) => void,
) {
  const controls = createControls();
  const provided = machine.provide({ actors: Object.fromEntries(Object.keys(machine.implementations.actors).map((k) => [k, controls.logic()])) } as any);
  const actor = createActor(provided, { input } as any);
  const emitted: unknown[] = [];
  actor.on('*', (e: unknown) => emitted.push(e));
  actor.start();
  await flush();
  const execs: Record<string, any> = actorEventExecutors(events, controls);
  for (const e of events)
    if (!e.type.startsWith('xstate.'))
      execs[e.type] = async ({ event }: any) => {
        actor.send(event);
        await flush();
      };
  let step = 0;
  await model.testPath(path as any, {
    states: {
      '*': (expected: any) => {
        const s = actor.getSnapshot();
        expect(s.value).toEqual(expected.value);
        expect(s.context).toEqual(expected.context);
        expect([...s.tags].sort()).toEqual([...expected.tags].sort());
        extra?.({ emitted, controls, event: path.steps[step].event, before: step > 0 ? path.steps[step - 1].state : null }, step);
        step++;
      },
    },
    events: execs,
  });
  actor.stop();
}

/**
 * Replays one edge path of a machine whose invoked promise actors are controllable fakes (`provide` gets them
 * from `controls.logic()`): every step compares state value, context and children with the model, and the
 * emitted events with the model's `xstate.emit` effects. Timers wait on a SimulatedClock the model drives itself;
 * `timers` names the model's `xstate.after.*` events and how far each moves that clock; `input` is the machine's.
 */
export async function replayEdgePath<M extends AnyStateMachine>(
  model: TestModel<any, any, any>,
  events: ReadonlyArray<{ type: string }>,
  provide: (controls: ReturnType<typeof createControls>) => M,
  { path, effects }: EdgePath<M>,
  timers: Record<string, number> = {},
  input?: unknown,
): Promise<void> {
  const controls = createControls();
  const clock = new SimulatedClock();
  const actor = createActor(provide(controls) as AnyStateMachine, { clock, input } as never);
  const emitted: unknown[] = [];
  actor.on('*', (e) => {
    emitted.push(e);
  });
  actor.start();
  const exec: Record<string, (step: { event: any }) => Promise<void>> = actorEventExecutors(events, controls);
  for (const e of events)
    if (!e.type.startsWith('xstate.'))
      exec[e.type] = async ({ event }) => {
        actor.send(event);
        await flush();
      };
  for (const [type, ms] of Object.entries(timers))
    exec[type] = async () => {
      clock.increment(ms);
      await flush();
    };
  let step = 0;
  await model.testPath(path as any, {
    states: {
      '*': ((expected: AnyMachineSnapshot) => {
        const real = actor.getSnapshot() as AnyMachineSnapshot;
        expect(real.value).toEqual(expected.value);
        expect(real.context).toEqual(expected.context);
        expect(Object.keys(real.children).sort()).toEqual(Object.keys(expected.children).sort());
        expect(emitted.splice(0)).toEqual(effects[step++].map((a) => (a.params as { event: unknown }).event));
      }) as (s: unknown) => void,
    },
    events: exec,
  });
  actor.stop();
}
