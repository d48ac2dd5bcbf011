// What an operator hears and sees of new alarms outside the alarms screen: a 5 s notification (§9), a short
// tone and a title badge with the open count. The alarms machine only emits `alarm.raised`; this is its speaker.
// Muting is a per-browser preference (localStorage), not business state.
import { NOTIFICATION_MS } from '../../contract';
import type { AlarmsActor } from '../../machines/alarms';
import { notify } from './notices';

const MUTE_KEY = 'gatehouse-alarms-muted';
const listeners = new Set<() => void>();
let muted = typeof localStorage !== 'undefined' && localStorage.getItem(MUTE_KEY) === '1';

export const alarmSound = {
  isMuted: () => muted,
  setMuted(value: boolean) {
    muted = value;
    localStorage.setItem(MUTE_KEY, value ? '1' : '0');
    listeners.forEach((l) => l());
  },
  subscribe(l: () => void) { listeners.add(l); return () => { listeners.delete(l); }; },
};

let audio: AudioContext | null = null;
function beep() {
  try {
    audio ??= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch { /* no audio device, or not allowed before a user gesture */ }
}

const BADGE = /^\(\d+\) /;
/** `(3) Alarms · Gatehouse` while alarms are open; the route title itself is someone else's. */
export function titleWithBadge(title: string, count: number): string {
  const plain = title.replace(BADGE, '');
  return count > 0 ? `(${count}) ${plain}` : plain;
}

/** `desktop` also shows each new alarm as a desktop notification (through the companion, when it can). */
export function startAlarmNotices(alarms: AlarmsActor, desktop?: (title: string, message: string) => void): () => void {
  let count = alarms.getSnapshot().context.alarms.length;
  const apply = () => {
    const next = titleWithBadge(document.title, count);
    if (next !== document.title) document.title = next;
  };
  const raised = alarms.on('alarm.raised', ({ alarm }) => {
    if (muted) return;
    beep();
    const title = `Alarm: ${alarm.eventPointName ?? alarm.eventSourceName ?? alarm.eventPointId ?? ''}`;
    notify({ intent: 'danger', title, message: alarm.message, timeoutMs: NOTIFICATION_MS });
    desktop?.(title, alarm.message);
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
  return () => { raised.unsubscribe(); sub.unsubscribe(); observer.disconnect(); };
}
