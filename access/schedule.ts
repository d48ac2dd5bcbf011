// Schedules (issue 12): weekly time windows per day, a behaviour per kind of special day, and the special dates
// (holidays, half days; once or every year) that override the weekly windows on their date.
import { fill, type Sentence } from '../contract/messages';
import { minuteOf, type LocalTime } from './clock';

/** A window on one weekday; `end` before `start` runs past midnight into the next day; `end` '24:00' is midnight. */
export interface WeeklyWindow {
  day: number;
  start: string;
  end: string;
}
/** A window of a special day. */
export interface DayWindow {
  start: string;
  end: string;
}

export interface Schedule {
  id: number;
  name: string;
  windows: readonly WeeklyWindow[];
  /**
   * Per kind of special day (e.g. 'holiday', 'half-day'): its windows on such a date ([] closed all day). A kind
   * the schedule does not name closes it all day: special dates override schedules unless the schedule says how.
   */
  special: Readonly<Record<string, readonly DayWindow[]>>;
}

export interface SpecialDate {
  date: string;
  /** 'MM-DD' match every year */ yearly: boolean;
  kind: string;
  name: string;
}

/** Special dates looked up by 'YYYY-MM-DD' (one-off) and 'MM-DD' (yearly); a one-off date wins. */
export class SpecialCalendar {
  private readonly once = new Map<string, SpecialDate>();
  private readonly yearly = new Map<string, SpecialDate>();
  /** every date it was made of (an edge controller's snapshot carries them) */
  readonly dates: readonly SpecialDate[];
  constructor(dates: Iterable<SpecialDate>) {
    this.dates = [...dates];
    for (const d of this.dates) {
      if (d.yearly) this.yearly.set(d.date.slice(5), d);
      else this.once.set(d.date, d);
    }
  }
  on(t: LocalTime): SpecialDate | null {
    return this.once.get(t.date) ?? this.yearly.get(t.monthDay) ?? null;
  }
}

/** Open or closed, and why: a sentence with its key and values (the "Why?" step's detail, issue 48). */
export type ScheduleAnswer = { open: true; detail: Sentence } | { open: false; reason: 'outside-schedule' | 'special-day'; detail: Sentence };

const inWindow = (minute: number, start: string, end: string) => {
  const s = minuteOf(start);
  const e = minuteOf(end);
  return minute >= s && minute < e;
};
const describe = (w: DayWindow) => `${w.start}–${w.end}`;
/** Weekday names, English: a sentence's `{weekday}` (the console says it in the operator's language, a word value). */
export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * Is `schedule` open at local time `t`? On a special date the schedule's windows for that kind decide (the part of
 * the previous evening's window that runs past midnight does not carry into a special date); otherwise the
 * weekday's windows and the previous day's windows that run past midnight.
 */
export function scheduleOpen(schedule: Schedule, t: LocalTime, special: SpecialDate | null): ScheduleAnswer {
  if (special) {
    const day = { special: special.name, kind: special.kind, schedule: schedule.name };
    const windows = schedule.special[special.kind];
    if (!windows)
      return { open: false, reason: 'special-day', detail: fill('why.specialClosed', '{special} ({kind}): {schedule} is closed on this kind of day', day) };
    const w = windows.find((x) => inWindow(t.minute, x.start, x.end));
    if (w) return { open: true, detail: fill('why.specialOpen', '{special} ({kind}): {schedule} is open {window}', { ...day, window: describe(w) }) };
    return {
      open: false,
      reason: 'special-day',
      detail: windows.length
        ? fill('why.specialOpenOnly', '{special} ({kind}): {schedule} is open only {windows} on this kind of day', {
            ...day,
            windows: windows.map(describe).join(', '),
          })
        : fill('why.specialOpenNever', '{special} ({kind}): {schedule} is open only never on this kind of day', day),
    };
  }
  const yesterday = (t.weekday + 6) % 7;
  for (const w of schedule.windows) {
    const s = minuteOf(w.start);
    const e = minuteOf(w.end);
    const wraps = e <= s;
    const open = { schedule: schedule.name, weekday: DAY_NAMES[w.day], start: w.start, end: w.end };
    if (w.day === t.weekday && (wraps ? t.minute >= s : t.minute >= s && t.minute < e)) {
      return { open: true, detail: fill('why.scheduleOpen', '{schedule}: {weekday} {start}–{end}', open) };
    }
    if (wraps && w.day === yesterday && t.minute < e) {
      return { open: true, detail: fill('why.scheduleOpenPastMidnight', '{schedule}: {weekday} {start}–{end} (past midnight)', open) };
    }
  }
  const today = schedule.windows.filter((w) => w.day === t.weekday);
  const day = { schedule: schedule.name, weekday: DAY_NAMES[t.weekday] };
  return {
    open: false,
    reason: 'outside-schedule',
    detail: today.length
      ? fill('why.scheduleClosed', '{schedule} on {weekday}: {windows}', { ...day, windows: today.map(describe).join(', ') })
      : fill('why.scheduleClosedAllDay', '{schedule} on {weekday}: closed all day', day),
  };
}

/** What is wrong with a schedule's windows, as violations (inverted, empty, overlapping windows; bad times). */
export function scheduleViolations(
  windows: readonly WeeklyWindow[],
  special: Readonly<Record<string, readonly DayWindow[]>>,
): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = [];
  // every window as minute ranges of the week (a wrapping window continues into the next day)
  const spans: Array<{ from: number; to: number; i: number }> = [];
  windows.forEach((w, i) => {
    const s = minuteOf(w.start);
    const e = minuteOf(w.end);
    if (!Number.isInteger(w.day) || w.day < 0 || w.day > 6) out.push({ field: `windows.${i}.day`, message: 'must be a weekday from 0 (Sunday) to 6' });
    if (Number.isNaN(s) || s >= 24 * 60) out.push({ field: `windows.${i}.start`, message: 'must be a time from 00:00 to 23:59' });
    if (Number.isNaN(e)) out.push({ field: `windows.${i}.end`, message: 'must be a time from 00:00 to 24:00' });
    if (Number.isNaN(s) || Number.isNaN(e) || s >= 24 * 60) return;
    if (s === e) {
      out.push({ field: `windows.${i}.end`, message: 'must not be the same as the start' });
      return;
    }
    const base = w.day * 1440;
    spans.push({ from: base + s, to: base + (e > s ? e : e + 1440), i });
  });
  // overlaps, also across the end of the week (Saturday night into Sunday)
  const week = 7 * 1440;
  const all = spans.flatMap((x) => (x.to > week ? [x, { from: x.from - week, to: x.to - week, i: x.i }] : [x]));
  const reported = new Set<string>();
  for (const a of all) {
    for (const b of all) {
      if (b.i <= a.i || !(a.from < b.to && b.from < a.to) || reported.has(`${a.i}/${b.i}`)) continue;
      reported.add(`${a.i}/${b.i}`);
      out.push({ field: `windows.${b.i}.start`, message: `overlaps window ${a.i + 1}` });
    }
  }
  for (const [kind, list] of Object.entries(special)) {
    list.forEach((w, i) => {
      const s = minuteOf(w.start);
      const e = minuteOf(w.end);
      if (Number.isNaN(s) || s >= 1440) out.push({ field: `special.${kind}.${i}.start`, message: 'must be a time from 00:00 to 23:59' });
      else if (Number.isNaN(e)) out.push({ field: `special.${kind}.${i}.end`, message: 'must be a time from 00:00 to 24:00' });
      else if (e <= s) out.push({ field: `special.${kind}.${i}.end`, message: 'must be after the start (a special day’s window ends that day)' });
    });
  }
  return out;
}
