// Model-based test of the badge-print machine: every edge of its graph on the real machine, with the print
// actor replaced by a controllable fake; the print's input is the visitor the machine was made for.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { badgePrintMachine, selectBadgeError, selectBadgeIsPrinting, type BadgePrintSnapshot } from '../machines/badgePrint';
import { drive, edgePaths, onDemand, expectOracle, onlyInvoked } from './harness';

describe('badge print machine model', () => {
  const input = {
    visitorId: 7,
    visitor: { name: 'Nurul Aini binti Ismail', company: 'Acme', host: 'Sam Operator', validUntil: '2026-11-23T16:00:00.000Z' },
    printedAt: null,
  };
  const events = [
    { type: 'badge.print' },
    { type: 'xstate.done.actor.print', output: '2026-11-23T03:00:00.000Z' },
    { type: 'xstate.error.actor.print', error: new Error('The desktop companion is not connected.') },
    { type: 'xstate.error.actor.print', error: {} },
  ] as any[];
  const serialize = (s: BadgePrintSnapshot) => JSON.stringify([s.value, s.context.printedAt !== null, s.context.error]);
  const model = new TestModel(badgePrintMachine as any, { events: onlyInvoked(events) as any, serializeState: serialize as any, limit: 1000, input });
  const paths = onDemand(() => edgePaths(model, badgePrintMachine, serialize, [], input));

  it('keeps the invariants of its states (badgePrint.invariants.ts) at every step of the generated paths; a print records its time', () => {
    expectOracle(
      paths(),
      {
        'a print that succeeds keeps the time the server recorded': ({ event, after }) =>
          event.type === 'xstate.done.actor.print' ? after.context.printedAt === event.output : undefined,
        'a failed print keeps the last print time': ({ before, event, after }) =>
          event.type.startsWith('xstate.error.actor.print') ? after.context.printedAt === before.context.printedAt : undefined,
      },
      5,
    );
  });
  it('reaches every state', () => {
    const states = new Set(paths().flatMap((p) => p.path.steps.map((st) => JSON.stringify(st.state.value))));
    expect([...states].sort()).toEqual(['"failed"', '"idle"', '"printed"', '"printing"']);
  });
  it(`on the real actor along every generated path: the print gets the visitor; printing and its failure are shown as the state says`, async () => {
    const met = { 'a print asked': 0, 'a failure shown': 0 };
    for (const p of paths()) {
      await drive(model, badgePrintMachine, input, events, p, ({ controls, event }) => {
        if (event.type === 'badge.print') {
          met['a print asked']++;
          expect(controls.inputs.at(-1)?.input).toEqual({ visitorId: 7, visitor: input.visitor });
        }
      });
      const last = p.path.state;
      expect(selectBadgeIsPrinting(last)).toBe(last.matches('printing'));
      if (last.matches('failed')) {
        met['a failure shown']++;
        expect(selectBadgeError(last)).toMatch(/companion is not connected|could not be printed/);
      }
    }
    // each conditional check above met its case at least once (a loop that met none would have asserted nothing)
    expect(Object.entries(met).filter(([, n]) => n === 0)).toEqual([]);
  });
});
