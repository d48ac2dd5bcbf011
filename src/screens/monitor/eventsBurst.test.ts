import { describe, expect, it } from 'vitest';
import { BURST_CALM_FRAMES, burstOver, calmAfterFrame, farAfterFrame } from './eventsBurst';

describe('rows below the fold in a burst', () => {
  it('wait from the fold on when a frame brings more rows than the table shows', () => {
    expect(farAfterFrame(null, 40, 25)).toBe(25);
    expect(farAfterFrame(null, 25, 25)).toBeNull(); // exactly a table's worth is not a burst
  });
  it('keep waiting through a quieter frame inside the burst (the calm count renders them)', () => {
    let far: number | null = null;
    const frames = [40, 38, 12, 41, 3, 39]; // a wavering 2,000 events/s
    const seen = frames.map((added) => (far = farAfterFrame(far, added, 25)));
    expect(seen).toEqual([25, 25, 25, 25, 25, 25]);
  });
  it('never wait where there is no fold: scrolled down, or a narrow screen', () => {
    expect(farAfterFrame(25, 40, null)).toBeNull();
    expect(farAfterFrame(null, 3, null)).toBeNull();
  });
  it('follow the fold when the window changes height', () => {
    expect(farAfterFrame(25, 40, 31)).toBe(31);
  });
  it('are rendered again after BURST_CALM_FRAMES painted frames with no burst, however long those frames took', () => {
    // a burst frame, calm frames, a burst frame again (a stall paints no frame, so it counts nothing), then calm
    let calm = 0;
    const over: boolean[] = [];
    const frames = [true, ...Array<boolean>(BURST_CALM_FRAMES - 1).fill(false), true, ...Array<boolean>(BURST_CALM_FRAMES).fill(false)];
    for (const burst of frames) over.push(burstOver((calm = calmAfterFrame(calm, burst))));
    expect(over.indexOf(true)).toBe(frames.length - 1); // only the last frame ends it: the first calm run was one frame short
  });
});
