// Issue 48: the live connection's libraries wait for the opening screen's first readings (./openingScreen.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnyActorRef } from 'xstate';

type Snap = { hasTag(tag: string): boolean };
/** A stand-in for a view actor: busy or not, and its subscribers told of each change. */
function fakeActor(busy: boolean) {
  const observers = new Set<{ next?: (s: Snap) => void; complete?: () => void }>();
  let now = busy;
  const snap = (): Snap => ({ hasTag: (t) => t === 'busy' && now });
  const actor = {
    getSnapshot: snap,
    subscribe(o: { next?: (s: Snap) => void; complete?: () => void }) {
      observers.add(o);
      return { unsubscribe: () => observers.delete(o) };
    },
  };
  return {
    ref: actor as unknown as AnyActorRef,
    answer() {
      now = false;
      for (const o of [...observers]) o.next?.(snap());
    },
    close() {
      for (const o of [...observers]) o.complete?.();
    },
    watched: () => observers.size,
  };
}

let m: typeof import('./openingScreen');
let settled = false;
beforeEach(async () => {
  vi.useFakeTimers();
  // the frame and the idle period after the last answer, as timers (node has neither)
  vi.stubGlobal('requestAnimationFrame', (f: () => void) => setTimeout(f, 16));
  vi.stubGlobal('requestIdleCallback', (f: () => void) => setTimeout(f, 1));
  vi.resetModules();
  m = await import('./openingScreen');
  settled = false;
  void m.openingScreenRead.then(() => (settled = true));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
const after = async (ms: number) => {
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
};

describe('the opening screen is read', () => {
  it('not before the screen is drawn, however long the system runs (until the start cap)', async () => {
    m.openingScreenStarted();
    expect(await after(4_999)).toBe(false);
    expect(await after(1)).toBe(true);
  });
  it('a drawn screen with no reading: after the next frame', async () => {
    m.openingScreenShown();
    expect(await after(0)).toBe(false);
    expect(await after(20)).toBe(true);
  });
  it('waits for every reading in flight, then settles after the frame that draws the last answer', async () => {
    const counts = fakeActor(true);
    const doors = fakeActor(true);
    m.followOpeningRead(counts.ref);
    m.followOpeningRead(doors.ref);
    m.followOpeningRead(fakeActor(false).ref); // a reading already answered: nothing to wait for
    m.openingScreenShown();
    expect(await after(500)).toBe(false);
    counts.answer();
    expect(await after(500)).toBe(false);
    doors.close(); // a reading closed before it answered counts as done
    expect(counts.watched() + doors.watched()).toBe(0);
    expect(await after(0)).toBe(false);
    expect(await after(20)).toBe(true);
  });
  it('at most two seconds after the screen is drawn, when a reading never answers', async () => {
    m.followOpeningRead(fakeActor(true).ref);
    m.openingScreenShown();
    expect(await after(1_999)).toBe(false);
    expect(await after(1)).toBe(true);
  });
  it('readings opened after it settled are not followed', async () => {
    m.openingScreenShown();
    await after(20);
    const later = fakeActor(true);
    m.followOpeningRead(later.ref);
    expect(later.watched()).toBe(0);
  });
});
