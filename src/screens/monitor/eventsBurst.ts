// The live events screen in a burst (more new rows in a frame than the table shows, on a wide screen scrolled to the
// top): the rows from the fold on wait unrendered (app.css `.gh-row-far`) until the burst is over.

/**
 * After a burst's last frame, the rows below the fold are rendered again once the page has painted this many frames
 * with no burst in them (about half a second at 60 frames a second). Counted in painted frames, not milliseconds: a
 * main thread that stalls (a loaded machine, a long task) paints no frame, so the stall cannot end a burst that is
 * still coming in, as a 500 ms timer did when it fired between two frames of the same burst.
 */
export const BURST_CALM_FRAMES = 30;

/**
 * From which row on the rows wait unrendered after a frame that brought `added` new rows, `fold` being the rows the
 * table shows (null when there is none: scrolled down or a narrow screen). A burst's frame sets it at the fold. A
 * quieter frame inside a burst changes nothing: the burst's calm (BURST_CALM_FRAMES frames after its last) renders
 * them. Clearing it on every quieter frame rendered all 200 rows and then hid them again a frame later, a 30 ms
 * style pass each time a burst's rate wavered (issue 13, events screen).
 */
export function farAfterFrame(current: number | null, added: number, fold: number | null): number | null {
  if (fold === null) return null;
  return isBurst(added, fold) ? fold : current;
}

/** A frame that brought more new rows than the table shows: it (re)starts the burst's calm count. */
export function isBurst(added: number, fold: number | null): fold is number {
  return fold !== null && added > fold;
}

/**
 * The calm count after a painted frame: back to 0 on a burst's frame, one more on any other frame. The burst is over
 * (every row rendered again) when it reaches BURST_CALM_FRAMES.
 */
export function calmAfterFrame(calm: number, burst: boolean): number {
  return burst ? 0 : calm + 1;
}
export const burstOver = (calm: number) => calm >= BURST_CALM_FRAMES;
