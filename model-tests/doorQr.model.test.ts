// Model-based tests of /configure/door-qr's machines: the doors list with one switch turning at a time (the answer
// emitted for the toast, the list read again), and one door's code: asked for a credential, refused with the
// credential's violation, read again at the server's notice of a new period (once per notice) or after the period ends.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { SimulatedClock, createActor } from 'xstate';
import { DOOR_QR_RENEW_GRACE_MS } from '../contract';
import { doorQrCodeMachine, doorQrMachine, selectQrTurning, type DoorQrCodeSnapshot, type DoorQrSnapshot } from '../machines/doorQr';
import { codeInvariants, listInvariants } from '../machines/doorQr.invariants';
import { createControls, drive, edgePaths, onDemand, expectOracle, flush, onlyInvoked } from './harness';

const ROWS = { items: [{ id: 7, name: 'Server Room', divisionName: null, qr: false }] };

describe('door QR list model', () => {
  const events = [
    { type: 'doorQr.turn', id: 7, on: true },
    { type: 'doorQr.reload' },
    { type: 'xstate.done.actor.list', output: ROWS },
    { type: 'xstate.error.actor.list', error: new Error('offline') },
    { type: 'xstate.done.actor.turn', output: {} },
    { type: 'xstate.error.actor.turn', error: new Error('Not allowed') },
  ] as any[];
  const serialize = (s: DoorQrSnapshot) => JSON.stringify([s.value, s.context.doors !== null, s.context.turning !== null, s.context.error !== null]);
  const model = new TestModel(doorQrMachine as any, { events: onlyInvoked(events) as any, serializeState: serialize as any, limit: 2000 });
  const paths = onDemand(() => edgePaths(model, doorQrMachine, serialize, ['xstate.emit']));
  it('keeps the invariants of its states (doorQr.invariants.ts) at every step of the generated paths', () => {
    expectOracle(
      paths(),
      {
        'a turn refused says why and leaves the list as it was shown': ({ before, event, after }) =>
          event.type === 'xstate.error.actor.turn' && before.matches('turning')
            ? after.matches('ready') && after.context.error === 'Not allowed' && after.context.doors === before.context.doors
            : undefined,
        'a turn answered reads the list again': ({ before, event, after }) =>
          event.type === 'xstate.done.actor.turn' && before.matches('turning') ? after.matches('loading') : undefined,
      },
      5,
      listInvariants,
    );
  });
  it('turns a switch only once the list is read, and one at a time', () => {
    let checked = 0; // a loop that met no such step would have asserted nothing
    for (const p of paths())
      p.path.steps.forEach((st, i) => {
        const before = i > 0 ? p.path.steps[i - 1].state : null;
        if (st.state.matches('turning') && !before?.matches('turning')) {
          expect(before?.matches('ready')).toBe(true);
          checked++;
        }
      });
    expect(checked).toBeGreaterThan(0);
  });
  it(`on the real actor along every generated path: a switch turned is emitted once per answer, and the turning shown while it runs`, async () => {
    for (const p of paths()) {
      await drive(model, doorQrMachine, undefined, events, p, ({ emitted }, step) => {
        const turned = p.path.steps
          .slice(0, step + 1)
          .filter((st, i) => st.event.type === 'xstate.done.actor.turn' && p.path.steps[i - 1]?.state.matches('turning')).length;
        expect(emitted).toEqual(Array(turned).fill({ type: 'doorQr.turned', id: 7, on: true }));
      });
      expect(selectQrTurning(p.path.state)).toBe(p.path.state.matches('turning'));
    }
  });
});

const NOW = Date.parse('2026-11-25T08:00:00Z');
const CODE = { code: 'GHQ.1', credential: 'C1', identityName: 'Ada', periodS: 30, validFrom: '2026-11-25T08:00:00Z', validTo: '2026-11-25T08:00:30Z' };

describe('door QR code model', () => {
  const events = [
    { type: 'qr.ask', credential: 'C1' },
    { type: 'qr.noticed', doorId: 7, code: 'GHQ.2' },
    { type: 'qr.noticed', doorId: 8, code: 'GHQ.3' },
    { type: 'xstate.done.actor.code', output: { code: CODE, now: NOW } },
    { type: 'xstate.error.actor.code', error: { message: 'Invalid', violations: [{ field: 'credential', message: 'is not a credential of this client' }] } },
  ] as any[];
  const serialize = (s: DoorQrCodeSnapshot) => JSON.stringify([s.value, s.context.credential, s.context.answer !== null, s.context.problem, s.context.notice]);
  const model = new TestModel(
    doorQrCodeMachine as any,
    { events: onlyInvoked(events) as any, serializeState: serialize as any, limit: 2000, input: { doorId: 7 } } as any,
  );
  const paths = onDemand(() => edgePaths(model, doorQrCodeMachine, serialize, [], { doorId: 7 }));
  it('keeps the invariants of its states (doorQr.invariants.ts) at every step of the generated paths', () => {
    expectOracle(
      paths(),
      {
        'a refused credential is told with its violation': ({ before, event, after }) =>
          event.type === 'xstate.error.actor.code' && before.matches('asking')
            ? JSON.stringify(after.context.problem) === JSON.stringify({ violation: true, message: 'is not a credential of this client' })
            : undefined,
        'asking for a credential forgets the last code and problem': ({ event, after }) =>
          event.type === 'qr.ask' ? after.context.credential === 'C1' && after.context.answer === null && after.context.problem === null : undefined,
      },
      6,
      codeInvariants,
    );
  });
  it('reads again at a notice of its own door only, once per announced code', () => {
    const seen = { news: 0, other: 0 }; // both kinds of notice must have been met, else the loop asserted nothing of them
    for (const p of paths())
      p.path.steps.forEach((st, i) => {
        if (i === 0 || st.event.type !== 'qr.noticed') return;
        const before = p.path.steps[i - 1].state;
        const news = st.event.doorId === 7 && st.event.code !== before.context.notice && before.context.credential !== null;
        seen[news ? 'news' : 'other']++;
        if (news) expect(st.state.matches('asking')).toBe(true);
        else expect(st.state.context).toEqual(before.context);
      });
    expect(seen.news).toBeGreaterThan(0);
    expect(seen.other).toBeGreaterThan(0);
  });

  it('reads the code again a moment after its period ends when no notice came', async () => {
    const clock = new SimulatedClock();
    const controls = createControls();
    const actor = createActor(doorQrCodeMachine.provide({ actors: { code: controls.logic() } }), { clock, input: { doorId: 7 } }).start();
    actor.send({ type: 'qr.ask', credential: 'C1' });
    await controls.settle('code', 'done', { code: CODE, now: NOW + 10_000 }); // 20 s of the period left
    clock.increment(20_000 + DOOR_QR_RENEW_GRACE_MS - 1);
    expect(actor.getSnapshot().value).toBe('showing');
    clock.increment(1);
    await flush();
    expect(actor.getSnapshot().value).toBe('asking');
    expect(actor.getSnapshot().context.answer?.code).toEqual(CODE); // the shown code stays while the next is read
  });
});
