// Issue 48: a cold console fetches what its opening screen draws before the live connection's libraries (STOMP and
// SockJS, 18 KB compressed: src/transport/stomp.ts loads them once `openingScreenRead` settles). It settles when the
// shell has drawn the opening screen (src/app/OpeningScreenShown.tsx) and every reading opened until then has its
// first answer or failure (then after the frame that draws it, when the main thread is idle), and at the latest SHOWN_CAP_MS after the screen was drawn, or START_CAP_MS after the
// system started when no screen of the shell is drawn (a signed-in page without the shell). Only the first screen
// waits: every later connection finds the libraries loaded.
import type { AnyActorRef } from 'xstate';

export const SHOWN_CAP_MS = 2_000;
/** The user-timing mark made when the opening screen is read (bench/firstload.ts reads it in chromium's trace: the
 *  console usable, its screen drawn with its first answers and the main thread idle, with no DevTools client). */
export const OPENING_SCREEN_READ_MARK = 'gatehouse:opening-screen-read';
export const START_CAP_MS = 5_000;

let release: () => void = () => undefined;
let released = false;
let shown = false;
let pending = 0;

/** Settles once the opening screen has what it reads first (see above). */
export const openingScreenRead: Promise<void> = new Promise((resolve) => {
  release = () => {
    released = true;
    resolve();
  };
});

/** After the frame that draws the last answer, once the main thread is idle (its render's tasks done). */
const afterDrawn = (then: () => void) =>
  requestAnimationFrame(() => setTimeout(() => (typeof requestIdleCallback === 'function' ? requestIdleCallback(then, { timeout: 1_000 }) : then()), 0));
const settle = () => {
  if (!released && shown && pending === 0)
    afterDrawn(() => {
      if (!released && typeof performance.mark === 'function') performance.mark(OPENING_SCREEN_READ_MARK);
      release();
    });
};

/** A view actor just opened (src/system/browser.ts openViewActor): while the opening screen is not read, a reading
 *  in flight (tag `busy`, machines/reading.ts) is waited for until it answers, fails or is closed. */
export function followOpeningRead(actor: AnyActorRef): void {
  if (released || !actor.getSnapshot().hasTag?.('busy')) return;
  pending++;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    sub.unsubscribe();
    pending--;
    settle();
  };
  const sub = actor.subscribe({
    next: (snap: { hasTag(tag: string): boolean }) => {
      if (!snap.hasTag('busy')) finish();
    },
    error: finish,
    complete: finish,
  });
}

/** The shell drew the opening screen (its effects ran, so the readings it opens at once are followed). */
export function openingScreenShown(): void {
  if (shown) return;
  shown = true;
  setTimeout(release, SHOWN_CAP_MS);
  settle();
}

/** The system started: without a drawn screen the libraries wait START_CAP_MS at most. */
export function openingScreenStarted(): void {
  setTimeout(release, START_CAP_MS);
}
