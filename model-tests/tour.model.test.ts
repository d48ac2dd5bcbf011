// Model-based tests of the guided tour: every reachable state and transition, with the skip's persistence
// checked as an effect; then the default persistence through the session actor of a real system.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { createActor, fromCallback, setup } from 'xstate';
import { TOUR_OFF, TOUR_STEPS, tourMachine, tourStepsFor, type TourEmitted, type TourSnapshot } from '../machines/tour';
import { selectTourIsShowing, selectTourProgress, selectTourStep } from '../machines/tour.selectors';
import { invariants } from '../machines/tour.invariants';
import { edgePaths, onDemand, expectOracle, type EdgePath, inStep } from './harness';

const STEPS = TOUR_STEPS.slice(0, 3);
const events = [
  { type: 'tour.start', tourView: true },
  { type: 'tour.start', tourView: false },
  { type: 'tour.start', tourView: undefined },
  { type: 'tour.restart' },
  { type: 'tour.next' },
  { type: 'tour.back' },
  { type: 'tour.finish' },
  { type: 'tour.stop' },
  { type: 'tour.skip' },
  { type: 'session.ended' },
] as any[];

const serialize = (s: TourSnapshot) => JSON.stringify([s.value, s.context.step]);
const model = new TestModel(tourMachine as any, { events, serializeState: serialize as any, limit: 1000, input: { steps: STEPS } } as any);
const paths = onDemand(() => edgePaths(model, tourMachine, serialize, [], { steps: STEPS }));

describe('tour oracle', () => {
  it('keeps the invariants of its states (tour.invariants.ts) and the rules of §4 at every step of the generated paths', () => {
    expectOracle(
      paths(),
      {
        '§4: a start after the tour was skipped (tourView false) does not show it': ({ before, event, after }) =>
          event.type === 'tour.start' && event.tourView === false && before.matches('hidden') ? after.matches('hidden') : undefined,
        'a start or restart from hidden shows the first step': ({ before, event, after }) =>
          (event.type === 'tour.restart' || (event.type === 'tour.start' && event.tourView !== false)) && before.matches('hidden')
            ? after.matches('showing') && after.context.step === 0
            : undefined,
        'next moves one step on, or stays on the last': ({ before, event, after }) =>
          event.type === 'tour.next' && before.matches('showing')
            ? after.context.step === Math.min(before.context.step + 1, before.context.steps.length - 1)
            : undefined,
        'back moves one step back, or stays on the first': ({ before, event, after }) =>
          event.type === 'tour.back' && before.matches('showing') ? after.context.step === Math.max(before.context.step - 1, 0) : undefined,
        'finishing, stopping, skipping or signing out closes it': ({ before, event, after }) =>
          ['tour.finish', 'tour.stop', 'tour.skip', 'session.ended'].includes(event.type) && before.matches('showing') ? after.matches('hidden') : undefined,
      },
      4,
      invariants,
    );
  });
});

async function run({ path }: EdgePath<typeof tourMachine>) {
  const done: Array<{ type: string; params: unknown }> = [];
  const emitted: TourEmitted[] = [];
  const actor = createActor(
    tourMachine.provide({
      actions: {
        persistTourView: () => {
          done.push({ type: 'persistTourView', params: undefined });
        },
      },
    }),
    { input: { steps: STEPS } },
  );
  actor.on('tour.closed', (e) => emitted.push(e));
  actor.start();
  let step = 0;
  let wasShowing = false;
  const exec = async ({ event }: { event: any }) => {
    actor.send(event);
  };
  await model.testPath(path as any, {
    states: {
      '*': ((expected: TourSnapshot) => {
        const s = actor.getSnapshot();
        inStep(s, expected); // the oracle is below, not the machine compared with itself
        // independent rules: closing an open tour tells how it closed; only skipping persists tourView
        const event = path.steps[step]?.event;
        const how = ({ 'tour.finish': 'finished', 'tour.stop': 'stopped', 'tour.skip': 'skipped' } as Record<string, TourEmitted['how']>)[event?.type];
        const closed = step > 0 && how !== undefined && wasShowing;
        expect(emitted.splice(0)).toEqual(closed ? [{ type: 'tour.closed', how }] : []);
        expect(done.splice(0)).toEqual(closed && how === 'skipped' ? [{ type: 'persistTourView', params: undefined }] : []);
        wasShowing = s.matches('showing');
        step++;
      }) as (s: unknown) => void,
    },
    events: Object.fromEntries([...new Set(events.map((e) => e.type))].map((t) => [t, exec])),
  });
}

describe('tour machine model', () => {
  it('reaches hidden and every step of the tour', () => {
    const states = new Set(paths().map((p) => serialize(p.path.state)));
    expect(states).toEqual(
      new Set([
        JSON.stringify(['hidden', 0]),
        ...STEPS.map((_, i) => JSON.stringify(['showing', i])),
        ...STEPS.slice(1).map((_, i) => JSON.stringify(['hidden', i + 1])),
      ]),
    );
  });
  it(`tells how an open tour closed and persists the view only when skipped, on the real actor, along every generated path`, async () => {
    for (const p of paths()) await run(p);
  });
});

describe('tour rules', () => {
  it('does not start at sign-in once skipped (tourView false), but the profile menu restarts it', () => {
    const actor = createActor(tourMachine, { input: {} }).start();
    actor.send({ type: 'tour.start', tourView: false });
    expect(selectTourIsShowing(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'tour.restart' });
    expect(selectTourStep(actor.getSnapshot())).toEqual(TOUR_STEPS[0]);
    expect(selectTourProgress(actor.getSnapshot())).toEqual({ index: 0, count: TOUR_STEPS.length });
  });

  it('walks the sidebar, tabs, alarms and settings, each step pointing at a data-tour target', () => {
    expect(TOUR_STEPS.map((s) => s.target)).toEqual(
      expect.arrayContaining(['[data-tour="sidebar"]', '[data-tour="tabs"]', '[data-tour="alarms"]', '[data-tour="settings"]']),
    );
    for (const s of TOUR_STEPS) expect(s.title.length * s.text.length).toBeGreaterThan(0);
  });

  it('skipping tells the session actor to save tourView false; finishing and stopping tell it nothing', () => {
    const received: unknown[] = [];
    const fakeSession = fromCallback(({ receive }) => {
      receive((e) => received.push(e));
    });
    const root = setup({ actors: { session: fakeSession, tour: tourMachine } }).createMachine({
      invoke: [
        { id: 'session', systemId: 'session', src: 'session' },
        { id: 'tour', systemId: 'tour', src: 'tour', input: {} },
      ],
    });
    const actor = createActor(root).start();
    const tour = actor.system.get('tour')!;
    tour.send({ type: 'tour.start', tourView: true });
    tour.send({ type: 'tour.finish' });
    tour.send({ type: 'tour.restart' });
    tour.send({ type: 'tour.stop' });
    expect(received).toEqual([]);
    tour.send({ type: 'tour.restart' });
    tour.send({ type: 'tour.skip' });
    expect(received).toEqual([TOUR_OFF]);
    expect(TOUR_OFF).toEqual({ type: 'session.updateSettings', patch: { tourView: false } });
    actor.stop();
  });
});

describe('the tour describes what the user has (issue 10)', () => {
  it('drops the alarms step without alarms, lists only the user’s sections, and mentions client switching only for several clients', () => {
    const steps = tourStepsFor({ sections: ['Visitor', 'Manage'], alarms: false, multiClient: false });
    expect(steps.map((s) => s.title)).not.toContain('Alarms');
    expect(steps[0].text).toBe('Every section you may use is in the sidebar: visitor and manage.');
    expect(steps.at(-1)!.text).not.toMatch(/switch client/);
    expect(tourStepsFor({ sections: ['Monitor'], alarms: true, multiClient: true }).map((s) => s.title)).toContain('Alarms');
  });
  it('shows the fitted steps when started with the user’s facts', () => {
    const actor = createActor(tourMachine, { input: {} }).start();
    actor.send({ type: 'tour.start', tourView: true, facts: { sections: ['Report'], alarms: false, multiClient: false } });
    expect(actor.getSnapshot().context.steps.map((s) => s.title)).not.toContain('Alarms');
    actor.stop();
  });
});
