// Issue 48: no machine is built as its module is evaluated (machines/defined.ts); the console's start builds the
// system's machines in a task of their own (src/system/browser.ts prepareSystem), each once. A machine is counted as xstate builds it:
// its constructor binds `getInitialSnapshot` of the prototype, read here through an accessor put in its place.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StateMachine, createActor } from 'xstate';

const built: string[] = [];
const own = Object.getOwnPropertyDescriptor(StateMachine.prototype, 'getInitialSnapshot')!;
beforeAll(() => {
  Object.defineProperty(StateMachine.prototype, 'getInitialSnapshot', {
    configurable: true,
    get(this: { id?: string }) {
      built.push(this.id ?? '(machine)');
      return own.value;
    },
    set(this: object, v: unknown) {
      Object.defineProperty(this, 'getInitialSnapshot', { value: v, writable: true, configurable: true, enumerable: true });
    },
  });
});
afterAll(() => {
  Object.defineProperty(StateMachine.prototype, 'getInitialSnapshot', own);
});

/** Every module of machines/ and every module of the console's logic that defines or provides machines. */
const MODULES = {
  ...import.meta.glob(['./*.ts', '!./*.test.ts']),
  ...import.meta.glob(['../src/system/*{Actors,Logic,logic}.ts', '../src/system/wiring.ts']),
};

describe('machines defined on first use (issue 48)', () => {
  it("builds no machine while the modules of machines/ and of the console's logic are evaluated", async () => {
    expect(Object.keys(MODULES)).toEqual(
      expect.arrayContaining(['./system.ts', './session.ts', '../src/system/openingActors.ts', '../src/system/readActors.ts']),
    );
    vi.resetModules(); // evaluated anew here, whatever another file of this fork imported before
    const before = built.length;
    for (const load of Object.values(MODULES)) await load();
    expect(built.slice(before)).toEqual([]);
  });

  it("builds the system's machines when the console prepares its system, and none more when its actor is made", async () => {
    vi.resetModules();
    const { createGatehouseSystem, gatehouseMachine, rootMachine } = await import('./system');
    const { sessionMachine } = await import('./session');
    const { isBuilt } = await import('./defined');
    const { readingMachine } = await import('./reading');
    const { replayImpl } = await import('./journal');
    expect(isBuilt(sessionMachine)).toBe(false);
    const before = built.length;
    const impl = replayImpl();
    const machine = gatehouseMachine(impl);
    const made = built.slice(before);
    expect(made).toEqual(expect.arrayContaining(['gatehouse', 'session', 'tabs', 'companion', 'cardConnector', 'alarms', 'options', 'socket']));
    // each machine's definition once, and once provided with the implementations
    const times = new Map<string, number>();
    for (const id of made) times.set(id, (times.get(id) ?? 0) + 1);
    expect(Math.max(...times.values())).toBeLessThanOrEqual(2);
    expect(isBuilt(sessionMachine) && isBuilt(rootMachine)).toBe(true);
    const root = createGatehouseSystem(impl, {}, machine);
    expect(built.length).toBe(before + made.length);
    expect(root.getSnapshot().status).toBe('active');
    // a stand-in is the machine to xstate: an actor of it starts in the machine's initial state
    expect(isBuilt(readingMachine)).toBe(false);
    const actor = createActor(readingMachine, { input: null }).start();
    expect(actor.getSnapshot().status).toBe('active');
    expect(readingMachine).toBeInstanceOf(StateMachine);
    actor.stop();
  });

  it("relies on xstate's setup answering functions that work detached from it, as lazySetup calls them", async () => {
    // lazySetup copies the object xstate's `setup` answers and calls its createMachine and extend later, detached: a
    // newer xstate whose setup methods read `this` would break every machine module, named here first
    const { setup } = await import('xstate');
    const { createMachine, extend } = setup({ actions: { noted: () => undefined } });
    const machine = createMachine({ id: 'detached', initial: 'a', states: { a: { on: { go: { target: 'b', actions: 'noted' } } }, b: {} } });
    const actor = createActor(machine).start();
    actor.send({ type: 'go' });
    expect(actor.getSnapshot().value).toBe('b');
    expect(typeof extend({}).createMachine).toBe('function');
  });
});
