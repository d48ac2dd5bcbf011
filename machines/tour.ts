// The guided tour (§1, §4): an overlay walking a new operator through the sidebar, tabs, alarms and settings.
// Skipping turns tourView off for good (the session actor owns and saves settings); finishing or stopping
// only closes it. The profile menu can restart it whatever tourView says.
import { and, assign, emit, enqueueActions, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';

export interface TourStep {
  /** CSS selector of the element the step points at; views mark it with `data-tour="…"`. */
  target: string;
  title: string;
  text: string;
}

/** The steps, as data. The targets are `data-tour` attributes the layout puts on its parts. */
export const TOUR_STEPS: readonly TourStep[] = [
  {
    target: '[data-tour="sidebar"]',
    title: 'Navigation',
    text: 'Every section you may use is in the sidebar: monitor, manage, configure, hardware, reports, visitors and attendance.',
  },
  {
    target: '[data-tour="tabs"]',
    title: 'Tabs',
    text: 'Screens you visit stay open as tabs, up to ten. Click a tab to go back to it; right-click for close options.',
  },
  { target: '[data-tour="alarms"]', title: 'Alarms', text: 'New alarms arrive here in real time. Acknowledge them, then process them when handled.' },
  {
    target: '[data-tour="settings"]',
    title: 'Settings',
    text: 'Change the theme, tabs, fixed header and sidebar logo here. Your settings follow you to any browser.',
  },
  { target: '[data-tour="profile"]', title: 'Your profile', text: 'Edit your profile, switch client, sign out, or restart this tour from the profile menu.' },
];

/** Issue 10: what the signed-in user has, so the tour describes only that. */
export interface TourFacts {
  sections: string[];
  alarms: boolean;
  multiClient: boolean;
}

const listed = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/** The steps for this user: their own sections, the alarms step only with alarms, client switching only for several clients. */
export function tourStepsFor(facts: TourFacts, base: readonly TourStep[] = TOUR_STEPS): TourStep[] {
  return base
    .filter((s) => facts.alarms || s.target !== '[data-tour="alarms"]')
    .map((s) => {
      if (s.target === '[data-tour="sidebar"]') {
        const names = facts.sections.map((n) => n.toLowerCase());
        return { ...s, text: names.length ? `Every section you may use is in the sidebar: ${listed(names)}.` : 'Every screen you may use is in the sidebar.' };
      }
      if (s.target === '[data-tour="profile"]') {
        return { ...s, text: `Edit your profile, ${facts.multiClient ? 'switch client, ' : ''}sign out, or restart this tour from the profile menu.` };
      }
      return s;
    });
}

export interface TourContext {
  steps: readonly TourStep[];
  step: number;
  base: readonly TourStep[];
}
export interface TourInput {
  steps?: readonly TourStep[];
}

export type TourEvent =
  /** At sign-in: shows the tour unless the user's settings say tourView: false. */
  | { type: 'tour.start'; tourView: boolean | undefined; facts?: TourFacts }
  /** From the profile menu: shows the tour whatever tourView says. */
  | { type: 'tour.restart'; facts?: TourFacts }
  | { type: 'tour.next' }
  | { type: 'tour.back' }
  | { type: 'tour.finish' }
  | { type: 'tour.stop' }
  | { type: 'tour.skip' }
  /** Sign-out closes the overlay. */
  | { type: 'session.ended' };

/** What the session actor is told when the tour is skipped. */
export const TOUR_OFF = { type: 'session.updateSettings', patch: { tourView: false } } as const;

export type TourEmitted = { type: 'tour.closed'; how: 'finished' | 'stopped' | 'skipped' };

export const tourMachine = lazySetup({
  types: { context: {} as TourContext, events: {} as TourEvent, emitted: {} as TourEmitted, input: {} as TourInput },
  guards: {
    // §4: a skipped tour stays away
    tourWanted: ({ event }) => event.type === 'tour.start' && event.tourView !== false,
    hasSteps: ({ context }) => context.steps.length > 0,
    hasNext: ({ context }) => context.step + 1 < context.steps.length,
    hasPrevious: ({ context }) => context.step > 0,
  },
  actions: {
    // issue 10: the tour describes what this user has (the view tells the facts with the start)
    fitSteps: assign(({ context, event }) => {
      const facts = event.type === 'tour.start' || event.type === 'tour.restart' ? event.facts : undefined;
      return { step: 0, steps: facts ? tourStepsFor(facts, context.base) : context.base };
    }),
    closed: emit((_, params: { how: TourEmitted['how'] }) => ({ type: 'tour.closed' as const, how: params.how })),
    /**
     * §4: skipping sets tourView to false permanently. The session actor owns settings and saves them on the
     * server (so it holds on another browser); tests and replay may provide their own.
     */
    persistTourView: enqueueActions(({ system, enqueue }) => {
      const session = system.get('session');
      if (session) enqueue.sendTo(session, TOUR_OFF);
    }),
  },
}).createMachine({
  id: 'tour',
  context: ({ input }) => ({ steps: input?.steps ?? TOUR_STEPS, base: input?.steps ?? TOUR_STEPS, step: 0 }),
  initial: 'hidden',
  states: {
    hidden: {
      on: {
        'tour.start': { guard: and(['hasSteps', 'tourWanted']), target: 'showing', actions: 'fitSteps' },
        'tour.restart': { guard: 'hasSteps', target: 'showing', actions: 'fitSteps' },
      },
    },
    showing: {
      on: {
        'tour.next': { guard: 'hasNext', actions: assign({ step: ({ context }) => context.step + 1 }) },
        'tour.back': { guard: 'hasPrevious', actions: assign({ step: ({ context }) => context.step - 1 }) },
        'tour.restart': { actions: 'fitSteps' },
        // §4: finishing or stopping only closes it
        'tour.finish': { target: 'hidden', actions: { type: 'closed', params: { how: 'finished' } } },
        'tour.stop': { target: 'hidden', actions: { type: 'closed', params: { how: 'stopped' } } },
        'tour.skip': { target: 'hidden', actions: ['persistTourView', { type: 'closed', params: { how: 'skipped' } }] },
        'session.ended': { target: 'hidden' },
      },
    },
  },
});

export type TourMachine = typeof tourMachine;
export type TourActor = ActorRefFrom<typeof tourMachine>;
export type TourSnapshot = SnapshotFrom<typeof tourMachine>;
