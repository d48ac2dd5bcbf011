// Where the guided tour's card goes beside the element a step points at (pure, tested).

export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}
export const CARD_W = 340;
export const CARD_H = 210; // about; the card is placed before it is measured
const GAP = 12;
const MARGIN = 8;

/** Where the card goes for a target box in a viewport: right of tall things, else below, else above, else centred. */
export function placeCard(target: Box | null, vw: number, vh: number, cardH = CARD_H): { top: number; left: number } {
  const clampX = (x: number) => Math.max(MARGIN, Math.min(x, vw - CARD_W - MARGIN));
  const clampY = (y: number) => Math.max(MARGIN, Math.min(y, vh - cardH - MARGIN));
  if (!target) return { top: clampY((vh - cardH) / 2), left: clampX((vw - CARD_W) / 2) };
  const right = target.left + target.width;
  const bottom = target.top + target.height;
  if (target.height > vh / 2 && right + GAP + CARD_W <= vw - MARGIN) return { top: clampY(target.top + 48), left: right + GAP };
  if (bottom + GAP + cardH <= vh - MARGIN) return { top: bottom + GAP, left: clampX(target.left + target.width / 2 - CARD_W / 2) };
  if (target.top - GAP - cardH >= MARGIN) return { top: target.top - GAP - cardH, left: clampX(target.left + target.width / 2 - CARD_W / 2) };
  return { top: clampY((vh - cardH) / 2), left: clampX((vw - CARD_W) / 2) };
}

const overlaps = (a: Box, b: Box) => a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

/**
 * Issue 10: the card never covers a hint the page marks with `data-tour-avoid` (the "Select the client" line):
 * it moves below the hint, or else to the bottom of the viewport.
 */
export function placeCardClear(target: Box | null, vw: number, vh: number, cardH = CARD_H, avoid: Box[] = []): { top: number; left: number } {
  const at = placeCard(target, vw, vh, cardH);
  const card = (p: { top: number; left: number }): Box => ({ top: p.top, left: p.left, width: CARD_W, height: cardH });
  const hit = avoid.find((a) => overlaps(card(at), a));
  if (!hit) return at;
  const below = { top: hit.top + hit.height + GAP, left: at.left };
  if (below.top + cardH <= vh - MARGIN && !avoid.some((a) => overlaps(card(below), a))) return below;
  return { top: Math.max(MARGIN, vh - cardH - MARGIN), left: at.left };
}
