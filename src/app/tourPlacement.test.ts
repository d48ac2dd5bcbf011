import { describe, expect, it } from 'vitest';
import { CARD_W, placeCard, placeCardClear } from './tourPlacement';

describe('placeCard: the tour card sits beside its target and inside the window', () => {
  const vw = 1400,
    vh = 900;
  it('goes to the right of a tall target (the sidebar)', () => {
    expect(placeCard({ top: 0, left: 0, width: 230, height: 900 }, vw, vh, 200)).toEqual({ top: 48, left: 242 });
  });
  it('goes below a header button, kept inside the right edge', () => {
    const at = placeCard({ top: 8, left: 1360, width: 32, height: 32 }, vw, vh, 200);
    expect(at.top).toBe(52);
    expect(at.left + CARD_W).toBeLessThanOrEqual(vw - 8);
  });
  it('goes above a target at the bottom of the window', () => {
    expect(placeCard({ top: 800, left: 600, width: 100, height: 40 }, vw, vh, 200).top).toBe(588);
  });
  it("is centred when the step's target is not on screen", () => {
    expect(placeCard(null, vw, vh, 200)).toEqual({ top: 350, left: (vw - CARD_W) / 2 });
  });
});

describe('placeCardClear (issue 10)', () => {
  it('moves the card off the "Select the client" hint, below it', () => {
    const sidebar = { top: 0, left: 0, width: 230, height: 900 };
    const hint = { top: 100, left: 240, width: 500, height: 60 };
    const at = placeCardClear(sidebar, 1440, 900, 210, [hint]);
    expect(at.top).toBeGreaterThanOrEqual(hint.top + hint.height);
  });
  it('leaves the card where it was when nothing is in the way', () => {
    const sidebar = { top: 0, left: 0, width: 230, height: 900 };
    expect(placeCardClear(sidebar, 1440, 900, 210, [])).toEqual(placeCard(sidebar, 1440, 900, 210));
  });
});
