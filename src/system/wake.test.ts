import { afterEach, describe, expect, it, vi } from 'vitest';
import { startWakeCheck } from './wake';

describe('sleep-wake check', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  it('fires only when a tick comes more than 3 s after the previous one', () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const onWake = vi.fn();
    const stop = startWakeCheck(onWake, { now: () => Date.now(), setInterval, clearInterval });
    vi.advanceTimersByTime(10_000);
    expect(onWake).not.toHaveBeenCalled();
    vi.setSystemTime(Date.now() + 3_000); // the next tick sees a 4 s gap
    vi.advanceTimersByTime(1_000);
    expect(onWake).toHaveBeenCalledTimes(1);
    expect(onWake.mock.calls[0][0]).toBeGreaterThan(3_000);
    stop();
  });
});
