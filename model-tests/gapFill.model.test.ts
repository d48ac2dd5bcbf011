// Model-based test of the events screen's gap fill (machines/gapFill.ts): its state is the set of reads on their way,
// so the model is that set. fast-check draws sequences of fills (after some id), answers (empty or not) and failures of
// any read on its way, in any order, and after every step the real actor's children, its reads and what it emitted
// match the model: every fill reads side by side with the others, none is stopped by another, an answer is said only
// when it found something, and a finished read is let go of.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createActor } from 'xstate';
import type { Event } from '../contract';
import { gapFillMachine, selectGapReads, type GapFillEmitted } from '../machines/gapFill';
import { createControls, flush } from './harness';

const found = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i, message: `event ${from + i}` }) as unknown as Event);

function start() {
  const controls = createControls();
  const actor = createActor(gapFillMachine.provide({ actors: { read: controls.logic<Event[], number>() } }));
  const emitted: GapFillEmitted[] = [];
  actor.on('gap.filled', (e) => {
    emitted.push(e);
  });
  actor.start();
  return { controls, actor, emitted };
}

const step = fc.oneof(
  fc.record({ type: fc.constant('fill' as const), afterId: fc.integer({ min: 0, max: 500 }) }),
  fc.record({ type: fc.constant('answer' as const), k: fc.nat(), n: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ type: fc.constant('fail' as const), k: fc.nat() }),
  // an answer of a child the machine did not start (no such read): nothing happens
  fc.record({ type: fc.constant('stray' as const) }),
);

describe('gap fill model', () => {
  it('reads side by side, says what each read found, and lets every finished read go', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 20 }), async (steps) => {
        const { controls, actor, emitted } = start();
        const model = new Map<string, number>(); // read on its way → the id it reads after
        const said: Event[][] = [];
        let seq = 0;
        for (const s of steps) {
          const waiting = [...model.keys()];
          if (s.type === 'fill') {
            actor.send({ type: 'gap.fill', afterId: s.afterId });
            await flush();
            model.set(`read-${++seq}`, s.afterId);
            expect(controls.inputs.at(-1)).toEqual({ id: `read-${seq}`, input: s.afterId });
          } else if (s.type === 'answer' && waiting.length) {
            const id = waiting[s.k % waiting.length];
            const events = found(model.get(id)! + 1, s.n);
            expect(await controls.settle(id, 'done', events)).toBe(true);
            model.delete(id);
            if (events.length) said.push(events);
          } else if (s.type === 'fail' && waiting.length) {
            const id = waiting[s.k % waiting.length];
            expect(await controls.settle(id, 'error', new Error('offline'))).toBe(true);
            model.delete(id);
          } else if (s.type === 'stray') {
            actor.send({ type: 'xstate.done.actor.read-999', actorId: 'read-999', output: found(1, 2) } as never);
            await flush();
          }
          const snap = actor.getSnapshot();
          expect(Object.keys(snap.children).sort()).toEqual([...model.keys()].sort());
          expect(snap.context.reading).toEqual(Object.fromEntries(model));
          expect(selectGapReads(snap)).toBe(model.size);
          // no read was stopped by another: every one on its way is still asking
          expect([...controls.pending.keys()].sort()).toEqual([...model.keys()].sort());
          expect(emitted.map((e) => e.events)).toEqual(said);
        }
        actor.stop();
      }),
      { numRuns: 200, seed: 2511 },
    );
  });

  it('a read hanging on the server that went away does not hold back the one after the reconnect', async () => {
    const { controls, actor, emitted } = start();
    actor.send({ type: 'gap.fill', afterId: 40 }); // the socket resynced against a server that is going away
    actor.send({ type: 'gap.fill', afterId: 40 }); // it came back: resynced again
    await flush();
    expect([...controls.pending.keys()]).toEqual(['read-1', 'read-2']);
    await controls.settle('read-2', 'done', found(41, 2));
    expect(emitted).toEqual([{ type: 'gap.filled', events: found(41, 2) }]);
    expect(controls.pending.has('read-1')).toBe(true); // still hanging, unharmed
    actor.stop();
  });

  it('stops its reads when the screen closes it', async () => {
    const { controls, actor } = start();
    actor.send({ type: 'gap.fill', afterId: 7 });
    actor.send({ type: 'gap.fill', afterId: 9 });
    await flush();
    expect(controls.pending.size).toBe(2);
    actor.stop();
    expect(controls.pending.size).toBe(0);
  });
});
