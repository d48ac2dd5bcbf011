// The guided tour's rules (machines/tour.ts) that its model test let pass, written down apart from the machine with the
// words worked out by hand (the mutation run of 2026-12-03, docs/TESTING.md "Mutation score"): the sidebar step names the
// user's sections as a sentence ("a", "a and b", "a, b and c", or "Every screen…" for none), the profile step mentions
// client switching only for several clients and every other step keeps its words; a tour without steps never shows;
// a restart fits the steps to the facts it brings; a skip with no session actor in the system still closes the tour;
// a tour made without input has the standard steps.
import { describe, expect, it } from 'vitest';
import { createActor, type AnyActorRef } from 'xstate';
import { TOUR_STEPS, tourMachine, tourStepsFor, type TourInput } from '../machines/tour';

/** A tour made without input (the root system gives `{}`; the machine's default when none at all). */
const noInput = { input: undefined as unknown as TourInput };

const textOf = (target: string, facts: Parameters<typeof tourStepsFor>[0]) => tourStepsFor(facts).find((s) => s.target === `[data-tour="${target}"]`)?.text;
const facts = (sections: string[], multiClient = false) => ({ sections, alarms: true, multiClient });

describe('tour rules', () => {
  it('names the sections in the sidebar step as a sentence, in lower case', () => {
    expect(textOf('sidebar', facts([]))).toBe('Every screen you may use is in the sidebar.');
    expect(textOf('sidebar', facts(['Monitor']))).toBe('Every section you may use is in the sidebar: monitor.');
    expect(textOf('sidebar', facts(['Monitor', 'Manage']))).toBe('Every section you may use is in the sidebar: monitor and manage.');
    expect(textOf('sidebar', facts(['Monitor', 'Manage', 'Report']))).toBe('Every section you may use is in the sidebar: monitor, manage and report.');
  });
  it('mentions client switching in the profile step only for several clients, and keeps the other steps as they are', () => {
    expect(textOf('profile', facts([], true))).toBe('Edit your profile, switch client, sign out, or restart this tour from the profile menu.');
    expect(textOf('profile', facts([], false))).toBe('Edit your profile, sign out, or restart this tour from the profile menu.');
    const fitted = tourStepsFor(facts(['Monitor']));
    for (const target of ['tabs', 'alarms', 'settings']) {
      const t = `[data-tour="${target}"]`;
      expect(fitted.find((s) => s.target === t)).toEqual(TOUR_STEPS.find((s) => s.target === t));
    }
  });
  it('never shows a tour without steps, whether started or restarted', () => {
    const actor = createActor(tourMachine, { input: { steps: [] } }).start();
    actor.send({ type: 'tour.start', tourView: true });
    actor.send({ type: 'tour.restart' });
    expect(actor.getSnapshot().value).toBe('hidden');
  });
  it('fits the steps to the facts a restart brings, and keeps them without facts', () => {
    const actor = createActor(tourMachine, noInput).start();
    expect(actor.getSnapshot().context.steps).toBe(TOUR_STEPS); // no input: the standard steps
    actor.send({ type: 'tour.restart', facts: { sections: ['Report'], alarms: false, multiClient: false } });
    expect(actor.getSnapshot().context.steps.map((s) => s.title)).toEqual(['Navigation', 'Tabs', 'Settings', 'Your profile']);
    actor.send({ type: 'tour.next' });
    actor.send({ type: 'tour.restart' });
    expect(actor.getSnapshot().context).toMatchObject({ step: 0, steps: TOUR_STEPS });
  });
  it('closes on a skip even when no session actor is there to be told', () => {
    const actor = createActor(tourMachine, noInput).start();
    const errors: unknown[] = [];
    actor.subscribe({ error: (e) => errors.push(e) });
    actor.send({ type: 'tour.restart' });
    actor.send({ type: 'tour.skip' });
    expect([actor.getSnapshot().value, errors]).toEqual(['hidden', []]);
    expect((actor.system.get('session') as AnyActorRef | undefined) ?? null).toBeNull();
  });
});
