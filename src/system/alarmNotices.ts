// What an operator hears of new alarms outside the alarms screen: a short tone per batch the alarms machine
// noticed (`alarm.noticed`), a desktop notification, and a title badge with the open count. The toasts themselves
// are the machine's notice board (src/app/AlarmToasts.tsx shows it).
// Sound is honest (issue 10): browsers block audio until the page had a user gesture (autoplay policy), so the
// AudioContext's own state says whether sound is on; muting is a per-browser preference (localStorage).
import type { AlarmsActor } from '../../machines/alarms';

const MUTE_KEY = 'gatehouse-alarms-muted';

/** on: a new alarm is heard; muted: the operator turned it off; blocked: the browser will not play it yet;
 *  unavailable: this browser has no audio output at all. */
export type SoundState = 'on' | 'muted' | 'blocked' | 'unavailable';

const listeners = new Set<() => void>();
let muted = typeof localStorage !== 'undefined' && localStorage.getItem(MUTE_KEY) === '1';
let audio: AudioContext | null = null;
let unavailable = false;
let played = 0;
/** Issue 48: a new AudioContext waits on the browser's audio service, on the main thread (most of a second in the
 *  bench's headless chromium), so the console makes it this long after it starts, when its first screen is drawn,
 *  or at the operator's first click or key, whichever comes first. Until then the sound says `blocked`, as a new
 *  context does before a gesture. */
const AUDIO_AFTER_MS = 1500;

function context(): AudioContext | null {
  if (audio || unavailable) return audio;
  try {
    audio = new AudioContext();
    audio.onstatechange = changed;
  } catch {
    unavailable = true;
  }
  return audio;
}
function changed() {
  listeners.forEach((l) => l());
}

/** The state of the sound from the browser's own answer, never from what we hoped. */
export function soundState(): SoundState {
  if (muted) return 'muted';
  if (!audio && !unavailable) return 'blocked'; // not made yet (AUDIO_AFTER_MS)
  const ctx = context();
  if (!ctx) return 'unavailable';
  return ctx.state === 'running' ? 'on' : 'blocked';
}

export const alarmSound = {
  state: soundState,
  isMuted: () => muted,
  /** Beeps played since start (the end-to-end tests read it through window.__gatehouseSound). */
  played: () => played,
  setMuted(value: boolean) {
    muted = value;
    localStorage.setItem(MUTE_KEY, value ? '1' : '0');
    changed();
  },
  /** Call from a click: resuming inside a user gesture is what the autoplay policy allows. */
  async enable(): Promise<SoundState> {
    if (muted) alarmSound.setMuted(false);
    const ctx = context();
    if (ctx && ctx.state !== 'running') await ctx.resume().catch(() => {});
    changed();
    return soundState();
  },
  subscribe(l: () => void) {
    listeners.add(l);
    return () => {
      listeners.delete(l);
    };
  },
};

function beep(priority: number) {
  if (soundState() !== 'on') return;
  const ctx = context()!;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.frequency.value = priority <= 1 ? 1040 : 880;
  gain.gain.value = 0.08;
  osc.connect(gain).connect(ctx.destination);
  osc.start();
  osc.stop(ctx.currentTime + (priority <= 1 ? 0.5 : 0.25));
  played++;
}

/** The first gesture anywhere on the page unlocks audio; the header shows "blocked" until then. */
function unlockOnFirstGesture() {
  const unlock = () => {
    const ctx = context();
    if (!ctx || ctx.state === 'running') return done();
    void ctx.resume().then(
      () => {
        if (ctx.state === 'running') done();
        changed();
      },
      () => {},
    );
  };
  const done = () => {
    for (const t of ['pointerdown', 'keydown'] as const) document.removeEventListener(t, unlock, true);
  };
  for (const t of ['pointerdown', 'keydown'] as const) document.addEventListener(t, unlock, true);
}

const BADGE = /^\(\d+\) /;
/** `(3) Alarms · Gatehouse` while alarms are open; the route title itself is someone else's. */
export function titleWithBadge(title: string, count: number): string {
  const plain = title.replace(BADGE, '');
  return count > 0 ? `(${count}) ${plain}` : plain;
}

/** `desktop` also shows each batch of new alarms as a desktop notification (through the companion, when it can). */
export function startAlarmNotices(alarms: AlarmsActor, desktop?: (title: string, message: string) => void): () => void {
  let count = alarms.getSnapshot().context.alarms.length;
  const made = setTimeout(() => {
    context();
    changed();
  }, AUDIO_AFTER_MS);
  unlockOnFirstGesture();
  (window as unknown as { __gatehouseSound?: typeof alarmSound }).__gatehouseSound = alarmSound;
  const apply = () => {
    const next = titleWithBadge(document.title, count);
    if (next !== document.title) document.title = next;
  };
  const noticed = alarms.on('alarm.noticed', ({ notices, priority }) => {
    beep(priority);
    const top = notices[0];
    if (!muted && top) desktop?.(top.title, top.message);
  });
  const sub = alarms.subscribe((s) => {
    if (s.context.alarms.length === count) return;
    count = s.context.alarms.length;
    apply();
  });
  // the route sets the title on navigation: put the badge back
  const observer = new MutationObserver(apply);
  const titleEl = document.querySelector('title');
  if (titleEl) observer.observe(titleEl, { childList: true, characterData: true, subtree: true });
  return () => {
    clearTimeout(made);
    noticed.unsubscribe();
    sub.unsubscribe();
    observer.disconnect();
  };
}
