// What holds in each state of the guided tour (./tour.ts: the overlay a new operator sees), written apart from its
// transitions and read by nothing in the machine. The model test hands them to the harness by state
// (model-tests/tour.model.test.ts, `expectOracle(…, byState)`), which checks them at every step of every path generated
// from the graph. '' holds in every state.

/** The part of the snapshot the invariants read (not imported from ./tour, so nothing is shared with it). */
type Held = { context: { steps: ReadonlyArray<{ target: string; title: string; text: string }>; step: number; base: ReadonlyArray<{ target: string }> } };

export const invariants = {
  '': {
    'the step is a whole number from 0': ({ context: c }: Held) => Number.isInteger(c.step) && c.step >= 0,
    "the tour's steps are steps of its base (issue 10 leaves some out and rewords others, never adds one)": ({ context: c }: Held) =>
      c.steps.every((s) => c.base.some((b) => b.target === s.target)),
    'every step says what it points at, with a title and words': ({ context: c }: Held) =>
      c.steps.every((s) => s.target.startsWith('[data-tour="') && s.title.trim() !== '' && s.text.trim() !== ''),
  },
  showing: {
    'a step is shown, one of the tour (never before the first, never past the last)': ({ context: c }: Held) => c.steps.length > 0 && c.step < c.steps.length,
  },
};
