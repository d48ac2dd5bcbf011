// Model-based test of `views` (machines/views.ts), the parent of the views' own actors: its state is the set of open
// children, so the model is that set. fast-check draws sequences of opens and closes (ids that resolve, ids that do
// not, malformed ids, ids already open, closes of ids never opened) and after every step the real actor's children,
// the system's registry (systemId = id) and each child's status match the model.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createActor, createMachine, setup, type AnyActorRef } from 'xstate';
import { createViewsMachine, selectOpenViews, VIEW_ID } from '../machines/views';
import { createGatehouseSystem } from '../machines/system';
import { replayImpl } from '../machines/journal';

// a view's machine: counts the pings it took (its input is its start)
const counter = setup({ types: { context: {} as { n: number }, input: {} as { start?: number } | undefined } }).createMachine({
  context: ({ input }) => ({ n: input?.start ?? 0 }),
  on: {
    ping: {
      actions: ({ context }) => {
        context.n++;
      },
    },
  },
});
const idle = createMachine({});

const label = fc.constantFrom('list:identities', 'form:doors', 'threatLevel', 'unknown:thing');
const step = fc.oneof(
  fc.record({ type: fc.constant('view.open' as const), label, n: fc.integer({ min: 1, max: 4 }), start: fc.integer({ min: 0, max: 9 }) }),
  fc.record({ type: fc.constant('view.close' as const), label, n: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ type: fc.constant('bad.open' as const), id: fc.constantFrom('', '#1', 'list:identities', 'a b#1', 'x#1#2', `${'y'.repeat(90)}#1`) }),
);

describe('views model', () => {
  it('keeps exactly the open views as its children, each under its id in the system', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        // 'unknown:thing' resolves to nothing (a view the replay does not re-run); the others to their machine
        const resolve = (id: string) => (id.startsWith('unknown:') ? undefined : id.startsWith('threatLevel') ? idle : counter);
        const root = createGatehouseSystem({ ...replayImpl(), views: { resolve } }).start();
        const views = root.system.get('views') as AnyActorRef;
        const model = new Map<string, number>(); // open id → its start
        const stopped: AnyActorRef[] = [];
        for (const s of steps) {
          if (s.type === 'bad.open') {
            expect(VIEW_ID.test(s.id)).toBe(false);
            views.send({ type: 'view.open', id: s.id, input: { start: 1 } });
          } else if (s.type === 'view.open') {
            const id = `${s.label}#${s.n}`;
            views.send({ type: 'view.open', id, input: { start: s.start } });
            if (!model.has(id) && resolve(id)) model.set(id, s.start);
          } else {
            const id = `${s.label}#${s.n}`;
            const child = root.system.get(id) as AnyActorRef | undefined;
            views.send({ type: 'view.close', id });
            if (child) stopped.push(child);
            model.delete(id);
          }
          expect(selectOpenViews(views.getSnapshot()).sort()).toEqual([...model.keys()].sort());
          for (const [id, start] of model) {
            const child = root.system.get(id) as AnyActorRef;
            expect(child.getSnapshot().status).toBe('active');
            if (id.startsWith('list:') || id.startsWith('form:')) expect(child.getSnapshot().context.n).toBe(start); // opened once, with its first input
          }
          for (const child of stopped) expect(child.getSnapshot().status).toBe('stopped');
        }
        root.stop();
      }),
      { numRuns: 300, seed: 2211 },
    );
  });

  it("delivers a view's events to its own actor only, and stops its children with the system", () => {
    const root = createGatehouseSystem({ ...replayImpl(), views: { resolve: () => counter } }).start();
    const views = root.system.get('views') as AnyActorRef;
    views.send({ type: 'view.open', id: 'form:doors#1', input: { start: 5 } });
    views.send({ type: 'view.open', id: 'form:doors#2' });
    const [a, b] = ['form:doors#1', 'form:doors#2'].map((id) => root.system.get(id) as AnyActorRef);
    a.send({ type: 'ping' });
    a.send({ type: 'ping' });
    expect([a.getSnapshot().context.n, b.getSnapshot().context.n]).toEqual([7, 0]);
    expect(a._parent).toBe(views);
    root.stop();
    expect([a.getSnapshot().status, b.getSnapshot().status]).toEqual(['stopped', 'stopped']);
  });

  it('without a way to resolve views (a bare machine), opens nothing', () => {
    const views = createActor(createViewsMachine()).start();
    views.send({ type: 'view.open', id: 'list:identities#1' });
    expect(selectOpenViews(views.getSnapshot())).toEqual([]);
  });
});
