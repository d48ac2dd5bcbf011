// §9 sleep-wake check: a 1 s tick; when the gap since the previous tick exceeds 3 s the machine slept.
import { SLEEP_WAKE_GAP_MS, SLEEP_WAKE_TICK_MS } from '../../contract';

export interface WakeClock {
  now: () => number;
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (id: any) => void;
}

const browserClock: WakeClock = {
  now: () => Date.now(),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (id) => globalThis.clearInterval(id),
};

export function startWakeCheck(onWake: (gapMs: number) => void, clock: WakeClock = browserClock): () => void {
  let last = clock.now();
  const id = clock.setInterval(() => {
    const now = clock.now();
    const gap = now - last;
    last = now;
    if (gap > SLEEP_WAKE_GAP_MS) onWake(gap);
  }, SLEEP_WAKE_TICK_MS);
  return () => clock.clearInterval(id);
}
