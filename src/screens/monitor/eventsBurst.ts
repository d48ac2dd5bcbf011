// The live events screen in a burst (more new rows in a frame than the table shows, on a wide screen scrolled to the
// top): the rows from the fold on wait unrendered (app.css `.gh-row-far`) until the burst is over.

/** After a burst's last frame, the rows below the fold are rendered again this much later. */
export const BURST_CALM_MS = 500;

/**
 * From which row on the rows wait unrendered after a frame that brought `added` new rows, `fold` being the rows the
 * table shows (null when there is none: scrolled down or a narrow screen). A burst's frame sets it at the fold. A
 * quieter frame inside a burst changes nothing: the burst's calm timer (BURST_CALM_MS after its last frame) renders
 * them. Clearing it on every quieter frame rendered all 200 rows and then hid them again a frame later, a 30 ms
 * style pass each time a burst's rate wavered (issue 13, events screen).
 */
export function farAfterFrame(current: number | null, added: number, fold: number | null): number | null {
  if (fold === null) return null;
  return isBurst(added, fold) ? fold : current;
}

/** A frame that brought more new rows than the table shows: it (re)starts the burst's calm timer. */
export function isBurst(added: number, fold: number | null): fold is number {
  return fold !== null && added > fold;
}
