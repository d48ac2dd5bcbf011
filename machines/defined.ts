// Issue 48: a machine is built when it is first used, not when its module is evaluated. xstate builds a machine's whole
// state tree in its constructor (every state node, every transition formatted), and `.provide()` builds another one
// from the same configuration: the actor system provides each of its machines with the console's implementations, so
// the trees built while the console's code was evaluated were thrown away, and they were a fifth to a quarter of that
// evaluation, the longest task of a cold console's start. Defined so, the console builds its system's machines in a
// task of their own before the system starts (src/system/browser.ts `prepareSystem`, src/app/App.tsx). A machine
// module sets its machine up with `lazySetup` instead of xstate's `setup`, and a module that provides one with the
// console's implementations at its top level uses `provided`. machines/defined.test.ts holds it: no machine of
// machines/ nor of the console's logic is built as its module is evaluated.
import { setup, type AnyStateMachine } from 'xstate';

/** What a stand-in stands for: the function that builds its machine, and the machine once built. */
interface Standing {
  make: () => object;
  made?: object;
}
const STAND_INS = new WeakMap<object, Standing>();
const real = (s: Standing) => (s.made ??= s.make());

/** Stands for the machine `make` builds; builds it once, at the first look at any of its members. */
export function defined<T extends object>(make: () => T): T {
  const standing: Standing = { make };
  const standIn = new Proxy({} as T, {
    get: (_, k) => Reflect.get(real(standing), k),
    set: (_, k, v) => Reflect.set(real(standing), k, v),
    has: (_, k) => Reflect.has(real(standing), k),
    ownKeys: () => Reflect.ownKeys(real(standing)),
    // the stand-in's own target has none of these members: each is reported configurable, as a proxy must
    getOwnPropertyDescriptor: (_, k) => {
      const d = Reflect.getOwnPropertyDescriptor(real(standing), k);
      return d && { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real(standing)),
  });
  STAND_INS.set(standIn, standing);
  return standIn;
}

/** Builds the machine a stand-in stands for now (nothing for a machine built already); answers the machine. */
export function build<T extends object>(machine: T): T {
  const standing = STAND_INS.get(machine);
  if (standing) real(standing);
  return machine;
}

/** Whether the machine has been built: always for one that is not a stand-in. */
export function isBuilt(machine: object): boolean {
  const standing = STAND_INS.get(machine);
  return !standing || standing.made !== undefined;
}

/** xstate's `setup`, whose `createMachine` (and its `extend`'s) answers the machine built on first use. */
export const lazySetup = ((parts: Parameters<typeof setup>[0]) => lazily(setup(parts))) as typeof setup;
function lazily<S extends { createMachine(config: never): object; extend(more: never): S }>(made: S): S {
  return { ...made, createMachine: (config: never) => defined(() => made.createMachine(config)), extend: (more: never) => lazily(made.extend(more)) };
}

/** `machine.provide(implementations)`, built on first use. */
export function provided<M extends AnyStateMachine>(machine: M, implementations: Parameters<M['provide']>[0]): M {
  return defined(() => machine.provide(implementations) as M);
}
