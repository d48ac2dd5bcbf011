// The view's handle on its own actor (useViewActor): nothing runs before the view is committed, what the view sent
// before is delivered in order, its subscribers follow the open actor, and closing stops it (issue 11).
import { describe, expect, it } from 'vitest';
import { emit, fromPromise, setup, type AnyActorLogic, type AnyActorRef } from 'xstate';
import { createGatehouseSystem } from '../../machines/system';
import { replayImpl } from '../../machines/journal';
import { createViewHandle } from './useViewActor';

let reads = 0;
const counter = setup({
  types: { context: {} as { n: number; log: string[] }, input: {} as { start: number }, emitted: {} as { type: 'counted'; n: number } },
  actors: {
    read: fromPromise(async () => {
      reads++;
      return 1;
    }),
  },
}).createMachine({
  context: ({ input }) => ({ n: input.start, log: [] }),
  invoke: { src: 'read' },
  on: {
    add: {
      actions: [
        ({ context, event }) => {
          context.n += (event as unknown as { by: number }).by;
          context.log.push(`add ${(event as unknown as { by: number }).by}`);
        },
        emit(({ context }) => ({ type: 'counted' as const, n: context.n })),
      ],
    },
  },
});

/** A system whose `views` resolves a label as the console's registry does (src/system/logic.ts): here, `counter`. */
function system() {
  const logics = new Map<string, AnyActorLogic>([['counter', counter]]);
  const root = createGatehouseSystem({ ...replayImpl(), views: { resolve: (id) => logics.get(id.replace(/#\d+$/, '')) } }).start();
  const views = root.system.get('views') as AnyActorRef;
  let n = 0;
  const open = (label: string, input: unknown) => {
    const id = `${label}#${++n}`;
    views.send({ type: 'view.open', id, input });
    return root.system.get(id) as AnyActorRef;
  };
  const close = (id: string) => views.send({ type: 'view.close', id });
  return { root, views, open, close };
}

describe('a view actor handle', () => {
  it('runs nothing before the view is committed: a stand-in gives the first snapshot', () => {
    const s = system();
    reads = 0;
    const h = createViewHandle(counter, 'counter', { start: 3 }, s.open, s.close);
    expect(h.getSnapshot().context.n).toBe(3);
    expect(h.getSnapshot().status).toBe('active'); // an unstarted machine's first snapshot
    expect(reads).toBe(0);
    expect(Object.keys(s.views.getSnapshot().children)).toEqual([]);
    // a render thrown away is just forgotten: nothing to close
    createViewHandle(counter, 'counter', { start: 1 }, s.open, s.close);
    expect(Object.keys(s.views.getSnapshot().children)).toEqual([]);
    s.root.stop();
  });

  it('delivers what it was sent before opening, in order, and moves subscribers and emitted-event handlers over', () => {
    const s = system();
    reads = 0;
    const h = createViewHandle(counter, 'counter', { start: 0 }, s.open, s.close);
    const seen: number[] = [];
    const counted: number[] = [];
    h.subscribe((snap: any) => seen.push(snap.context.n));
    h.on('counted', (e) => counted.push((e as unknown as { n: number }).n));
    h.send({ type: 'add', by: 2 });
    h.send({ type: 'add', by: 5 });
    expect(seen).toEqual([]);
    h.open();
    expect(h.id).toBe('counter#1');
    expect(s.views.getSnapshot().children['counter#1']).toBeDefined();
    expect(reads).toBe(1);
    expect(h.getSnapshot().context.log).toEqual(['add 2', 'add 5']);
    expect(seen.at(-1)).toBe(7); // told of the open actor's snapshot
    expect(counted).toEqual([2, 7]);
    h.send({ type: 'add', by: 1 });
    expect([seen.at(-1), counted.at(-1)]).toEqual([8, 8]);
    s.root.stop();
  });

  it('stops its actor when the view closes, and opens a new one if the view comes back (StrictMode)', () => {
    const s = system();
    const h = createViewHandle(counter, 'counter', { start: 0 }, s.open, s.close);
    h.open();
    const first = s.root.system.get('counter#1') as AnyActorRef;
    h.close();
    expect(first.getSnapshot().status).toBe('stopped');
    expect(s.views.getSnapshot().children).toEqual({});
    h.open();
    expect(h.id).toBe('counter#2');
    expect(Object.keys(s.views.getSnapshot().children)).toEqual(['counter#2']);
    h.close();
    h.close(); // twice is once
    expect(s.views.getSnapshot().children).toEqual({});
    s.root.stop();
  });

  it('a kept-alive view shown again opens its actor with what `carry` keeps of the closed one (else with its input)', () => {
    const s = system();
    const h = createViewHandle(counter, 'counter', { start: 1 }, s.open, s.close, (snap: { context: { n: number } }) => ({ start: snap.context.n }));
    h.open();
    h.send({ type: 'add', by: 4 });
    h.close(); // hidden
    h.open(); // shown again
    expect(h.id).toBe('counter#2');
    expect(h.getSnapshot().context.n).toBe(5);
    h.close();
    const plain = createViewHandle(counter, 'counter', { start: 1 }, s.open, s.close);
    plain.open();
    plain.send({ type: 'add', by: 4 });
    plain.close();
    plain.open();
    expect(plain.getSnapshot().context.n).toBe(1);
    s.root.stop();
  });
});
