// The one-answer read's rules (machines/reading.ts) that its model test let pass, written down apart from the machine
// (the mutation run of 2026-12-03, docs/TESTING.md "Mutation score"): a restart with a new input reads that input and
// keeps it; two changes in a row make one wait and one read, never a second one owed; a read refused without words says
// 'Could not load it.'. Driven on the real actor with a controllable read and a simulated clock.
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { DASHBOARD_LIVE_MS } from '../contract';
import { readingMachine } from '../machines/reading';
import { createControls, flush } from './harness';

function reading(input: unknown) {
  const controls = createControls();
  const clock = new SimulatedClock();
  const actor = createActor(readingMachine.provide({ actors: { read: controls.logic() } }), { clock, input }).start();
  return { controls, clock, actor, s: () => actor.getSnapshot() };
}

describe('one-answer read rules', () => {
  it('a restart that brings an input reads that input, and reads it again on a reload; one without reads the same input again', async () => {
    const { controls, actor } = reading({ zoneId: 3 });
    await controls.settle('read', 'done', ['HQ']);
    actor.send({ type: 'read.restart', input: { zoneId: 4 } });
    expect(controls.pending.get('read')?.input).toEqual({ zoneId: 4 });
    await controls.settle('read', 'done', ['Dock']);
    actor.send({ type: 'read.reload' });
    expect(controls.pending.get('read')?.input).toEqual({ zoneId: 4 });
    await controls.settle('read', 'done', ['Dock']);
    actor.send({ type: 'read.restart' });
    expect(controls.pending.get('read')?.input).toEqual({ zoneId: 4 });
  });

  it('two changes in a row start one wait: once it is over the answer is read once, and nothing more is owed or waited for', async () => {
    const { controls, clock, actor, s } = reading(null);
    await controls.settle('read', 'done', 1);
    actor.send({ type: 'read.changed' });
    actor.send({ type: 'read.changed' });
    clock.increment(DASHBOARD_LIVE_MS);
    await flush();
    expect(s().value).toBe('loading');
    await controls.settle('read', 'done', 2);
    expect(s().value).toBe('ready');
    expect(s().context).toMatchObject({ output: 2, waiting: false, owed: false });
    // and no second wait is on its way: the clock moving on reads nothing
    clock.increment(DASHBOARD_LIVE_MS);
    await flush();
    expect(s().value).toBe('ready');
    expect(controls.inputs).toHaveLength(2);
  });

  it('a reload while a read is on its way is not lost: the answer in is shown and read again at once (the doors screen missed a threat level set meanwhile)', async () => {
    const { controls, actor, s } = reading(null);
    await controls.settle('read', 'done', 'before');
    actor.send({ type: 'read.reload' }); // a door was edited
    actor.send({ type: 'read.reload' }); // a threat level was set while that read was on its way
    await controls.settle('read', 'done', 'started before the level');
    expect(s().value).toBe('loading');
    expect(s().context.output).toBe('started before the level');
    await controls.settle('read', 'done', 'after the level');
    expect(s().value).toBe('ready');
    expect(s().context.output).toBe('after the level');
    expect(controls.inputs).toHaveLength(3);
    // a failed read owed a reload reads again too
    actor.send({ type: 'read.reload' });
    actor.send({ type: 'read.reload' });
    await controls.settle('read', 'error', new Error('offline'));
    expect(s().value).toBe('loading');
    await controls.settle('read', 'done', 'back');
    expect(s().context).toMatchObject({ output: 'back', error: null, stale: false });
  });

  it("a read refused says the server's words, or 'Could not load it.' when it gave none", async () => {
    const a = reading(null);
    await a.controls.settle('read', 'error', new Error('offline'));
    expect(a.s().context.error).toBe('offline');
    const b = reading(null);
    await b.controls.settle('read', 'error', new Error(''));
    expect(b.s().value).toBe('failed');
    expect(b.s().context.error).toBe('Could not load it.');
  });
});
