// What the tour overlay reads from the tour actor.
import type { TourSnapshot, TourStep } from './tour';

export const selectTourIsShowing = (s: TourSnapshot) => s.matches('showing');
/** The step on screen, or null when the tour is hidden. */
export const selectTourStep = (s: TourSnapshot): TourStep | null => (s.matches('showing') ? (s.context.steps[s.context.step] ?? null) : null);
/** "Step 2 of 5". */
export const selectTourProgress = (s: TourSnapshot) => ({ index: s.context.step, count: s.context.steps.length });
export const selectTourIsFirst = (s: TourSnapshot) => s.context.step === 0;
export const selectTourIsLast = (s: TourSnapshot) => s.context.step === s.context.steps.length - 1;
