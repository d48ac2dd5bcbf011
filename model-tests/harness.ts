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

/**
 * The generated paths (or what a test derives from them), built when a test asks for them, never when the file is
 * imported. A mutation run (StrykerJS's vitest runner, which defines `globalThis.__stryker__` before the import)
 * switches a mutant on in a beforeAll hook, after the import, and runs against a mutant only the tests that ran the
 * mutated code: there each test builds them again, so every test that reads the paths reads those of the mutated
 * machine and is run against its mutants. Elsewhere (`npm test`) they are built once per file, by the first test that
 * asks: the same paths, at the same cost as before (docs/TESTING.md, "Mutation score").
 */
export function onDemand<T>(build: () => T): () => T {
  let built: { value: T; test: string | undefined } | null = null;
  return () => {
    // in a mutation run, once per test (the test's name), so a test reads them as often as it likes
    const test = '__stryker__' in globalThis ? (expect.getState().currentTestName ?? '') : undefined;
    if (built === null || built.test !== test) built = { value: build(), test };
    return built.value;
  };
}

// ---------- the oracle: invariants written apart from the transitions ----------

/**
 * What must hold in a state, declared in the machine as the state's `meta.invariants` (the root's hold in every state):
 * name → predicate over the snapshot. They say what a state means, not how the machine gets there, so a wrong target,
 * a dropped assign or an inverted guard breaks one of them where comparing the machine with itself cannot.
 */
export type StateInvariants<S = any> = Record<string, (snapshot: S) => boolean>;

/** The invariants of every state node the snapshot is in, by `node id: name`. */
export function invariantsOf(snapshot: AnyMachineSnapshot): Array<[string, (s: any) => boolean]> {
  const out: Array<[string, (s: any) => boolean]> = [];
  for (const [node, meta] of Object.entries(snapshot.getMeta() as Record<string, { invariants?: StateInvariants } | undefined>))
    for (const [name, holds] of Object.entries(meta?.invariants ?? {})) out.push([`${node}: ${name}`, holds]);
  return out;
}

/**
 * Invariants kept beside a machine (`machines/X.invariants.ts`) but not wired into its `meta`: by state, a state path
 * (`'ready'`, `'a.b'`) or `''` for every state. The test hands them to `checkPaths`/`expectOracle`, which check those of
 * each state the snapshot is in, as they check the `meta` ones (the machine file itself is left as it is).
 */
export type InvariantsByState<S = any> = Record<string, StateInvariants<S>>;
function invariantsByState(snapshot: AnyMachineSnapshot, table: InvariantsByState): Array<[string, (s: any) => boolean]> {
  const out: Array<[string, (s: any) => boolean]> = [];
  for (const [state, named] of Object.entries(table))
    if (state === '' || snapshot.matches(state as never))
      for (const [name, holds] of Object.entries(named)) out.push([`${state || '(every state)'}: ${name}`, holds]);
  return out;
}

/** One step of a generated path: the state before, the event, the state after and the named effects of the step. */
export interface Step<S> {
  before: S;
  event: any;
  after: S;
  effects: Array<{ type: string; params: unknown }>;
}
/**
 * A property of the graph's steps: `undefined` where it does not apply, else whether it holds. Each must apply to at
 * least one step of the generated paths (a property that never applied has checked nothing).
 */
export type StepProperties<S> = Record<string, (step: Step<S>) => boolean | undefined>;

/**
 * Checks every step of every generated path (the states the machine itself computed, `transition()` of the real
 * machine) against the state invariants of its `meta` and the step properties. Returns what failed, at most `max`
 * lines, and how often each invariant and property was checked; `expectOracle` turns this into assertions.
 */
export function checkPaths<M extends AnyStateMachine>(
  paths: EdgePath<M>[],
  properties: StepProperties<SnapshotFrom<M>> = {},
  max = 20,
  byState: InvariantsByState = {},
) {
  const failures: string[] = [];
  const applied: Record<string, number> = Object.fromEntries(Object.keys(properties).map((k) => [k, 0]));
  const held: Record<string, number> = {};
  const seen = new Set<string>();
  for (const p of paths) {
    const steps = p.path.steps;
    steps.forEach((st, i) => {
      const after = st.state as AnyMachineSnapshot;
      for (const [name, holds] of [...invariantsOf(after), ...invariantsByState(after, byState)]) {
        held[name] = (held[name] ?? 0) + 1;
        if (!holds(after)) {
          const line = `invariant "${name}" broken after ${JSON.stringify(st.event).slice(0, 160)} on ${p.description}`;
          if (!seen.has(name) && failures.length < max) failures.push(line);
          seen.add(name);
        }
      }
      if (i === 0) return;
      const step = { before: steps[i - 1].state, event: st.event, after: st.state, effects: p.effects[i] ?? [] } as Step<SnapshotFrom<M>>;
      for (const [name, prop] of Object.entries(properties)) {
        const r = prop(step);
        if (r === undefined) continue;
        applied[name]++;
        if (!r && !seen.has(name) && failures.length < max) {
          failures.push(`property "${name}" broken by ${JSON.stringify(st.event).slice(0, 160)} on ${p.description}`);
          seen.add(name);
        }
      }
    });
  }
  return { failures, applied, held };
}

/**
 * The assertions of `checkPaths`: nothing broken, every step property applied somewhere, and at least `invariants`
 * distinct state invariants checked (so a machine whose `meta` lost its invariants fails instead of passing on nothing).
 */
export function expectOracle<M extends AnyStateMachine>(
  paths: EdgePath<M>[],
  properties: StepProperties<SnapshotFrom<M>>,
  invariants: number,
  byState: InvariantsByState = {},
) {
  expect(paths.length).toBeGreaterThan(0);
  const { failures, applied, held } = checkPaths(paths, properties, 20, byState);
  expect(failures).toEqual([]);
  // every invariant handed over by state was checked somewhere (a state the paths never reach checks nothing)
  const named = Object.entries(byState).flatMap(([state, all]) => Object.keys(all).map((name) => `${state || '(every state)'}: ${name}`));
  expect(named.filter((n) => !held[n])).toEqual([]);
  expect(Object.entries(applied).filter(([, n]) => n === 0)).toEqual([]);
  expect(Object.keys(held).length).toBeGreaterThanOrEqual(invariants);
}

/** The model offers an invoked actor's done/error events only while that actor runs. */
export const onlyInvoked = (events: any[]) => (s: { children: Record<string, unknown> }) =>
  events.filter((e) => {
    const m = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type);
    return m ? m[1] in s.children : true;
  });

/**
 * Runs one edge path on a real actor with every invoked actor replaced by a controllable fake. It does not compare the
 * actor with the model (that is the machine compared with itself): after each step it checks the state invariants of
 * the real snapshot's `meta`, and `extra` checks what the test knows independently (emitted events, actor inputs).
 * The state value is checked only to know the actor followed the path (the harness in step), never as the oracle.
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
        inStep(s, expected);
        expectInvariants(s);
        extra?.({ emitted, controls, event: path.steps[step].event, before: step > 0 ? path.steps[step - 1].state : null }, step);
        step++;
      },
    },
    events: execs,
  });
  actor.stop();
}

/** The real actor followed the path (a harness precondition, not the test's oracle). */
export function inStep(real: AnyMachineSnapshot, expected: AnyMachineSnapshot) {
  if (JSON.stringify(real.value) !== JSON.stringify(expected.value))
    throw new Error(`harness out of step: the actor is in ${JSON.stringify(real.value)}, the path in ${JSON.stringify(expected.value)}`);
}
/** Every state invariant of the snapshot's `meta` holds, and those handed over by state (`byState`) for its states. */
export function expectInvariants(s: AnyMachineSnapshot, byState: InvariantsByState = {}) {
  const broken = [...invariantsOf(s), ...invariantsByState(s, byState)].filter(([, holds]) => !holds(s)).map(([name]) => name);
  expect(broken, `in ${JSON.stringify(s.value)}`).toEqual([]);
}

/**
 * Replays one edge path of a machine whose invoked promise actors are controllable fakes (`provide` gets them
 * from `controls.logic()`), checking the state invariants of the real snapshot's `meta` at every step and `extra`
 * (what the test knows independently) — never the machine against itself. Timers wait on a SimulatedClock the model
 * drives itself; `timers` names the model's `xstate.after.*` events and how far each moves that clock; `input` is the
 * machine's.
 */
export async function replayEdgePath<M extends AnyStateMachine>(
  model: TestModel<any, any, any>,
  events: ReadonlyArray<{ type: string }>,
  provide: (controls: ReturnType<typeof createControls>) => M,
  { path }: EdgePath<M>,
  timers: Record<string, number> = {},
  input?: unknown,
  extra?: (step: { emitted: unknown[]; controls: ReturnType<typeof createControls>; index: number }) => void,
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
        inStep(real, expected);
        expectInvariants(real);
        extra?.({ emitted, controls, index: step++ });
      }) as (s: unknown) => void,
    },
    events: exec,
  });
  actor.stop();
}
