// What the floor plan's views read of its time slider (./floorPlanTime.ts): each the smallest slice one part shows.
import type { FloorPlanTimeSnapshot } from './floorPlanTime';

/** A past moment is shown (door commands are off, the banner says when). */
export const selectInPast = (s: FloorPlanTimeSnapshot) => s.matches('past');
/** The moment shown, ms since the epoch; null: live. */
export const selectMoment = (s: FloorPlanTimeSnapshot) => s.context.at;
export const selectPlaying = (s: FloorPlanTimeSnapshot) => s.matches({ past: { clock: 'playing' } });
export const selectSpeed = (s: FloorPlanTimeSnapshot) => s.context.speed;
export const selectWindowMs = (s: FloorPlanTimeSnapshot) => s.context.windowMs;
/** The slider's ends: the start of the period and the real time last told. */
export const selectSpan = (s: FloorPlanTimeSnapshot) => ({ from: s.context.now - s.context.windowMs, to: s.context.now });
/** The plan as it stood at the moment (the last answer while the next is read); null live. */
export const selectPastPlan = (s: FloorPlanTimeSnapshot) => s.context.answer;
export const selectPastBusy = (s: FloorPlanTimeSnapshot) => s.hasTag('busy');
export const selectPastError = (s: FloorPlanTimeSnapshot) => (s.matches({ past: { moment: 'failed' } }) ? s.context.error : null);
/** The alarms of the period, to jump to (null until read: live, until the list is opened). */
export const selectPeriodAlarms = (s: FloorPlanTimeSnapshot) => s.context.alarms;
export const selectPeriodAlarmsError = (s: FloorPlanTimeSnapshot) =>
  s.matches({ past: { alarms: 'failed' } }) || s.matches({ live: 'failed' }) ? s.context.alarmsError : null;
/** The period's alarms are being read. */
export const selectPeriodAlarmsBusy = (s: FloorPlanTimeSnapshot) => s.matches({ past: { alarms: 'loading' } }) || s.matches({ live: 'loading' });
