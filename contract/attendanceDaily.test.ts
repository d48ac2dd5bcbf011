// The daily attendance rules (contract/attendanceDaily.ts) on the cases the server test cannot set the clock for:
// today before and after the shift's start plus grace, and the order the rules are checked in; the period check
// the server and the screens share; and the payroll rules (attendanceFigures, clockingDays, summariseDays) by example
// and as properties over any shift, break, rounding and badge-in times.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ATTENDANCE_SUMMARY_MAX_DAYS,
  BREAK_WITHOUT_SHIFT_AFTER,
  WHOLE_DAY,
  attendanceFigures,
  attendanceStatus,
  breakWindow,
  shiftSpan,
  clockingDays,
  nightShiftRollover,
  periodProblem,
  summariseDays,
  type AttendanceDay,
  type BadgeIn,
  type DailyAttendanceRow,
} from './attendanceDaily';

const base = { onLeave: false, shiftStart: '09:00', graceMinutes: 5, firstInMinutes: null as number | null, isToday: false, isFuture: false, nowMinutes: 0 };

describe('attendance status', () => {
  it('today: not yet in until the start plus grace has passed, absent after', () => {
    expect(attendanceStatus({ ...base, isToday: true, nowMinutes: 9 * 60 + 5 }).status).toBe('not-yet');
    expect(attendanceStatus({ ...base, isToday: true, nowMinutes: 9 * 60 + 6 }).status).toBe('absent');
    expect(attendanceStatus({ ...base, isFuture: true }).status).toBe('not-yet');
    expect(attendanceStatus(base).status).toBe('absent');
  });
  it('late only beyond the grace, counted from the start', () => {
    expect(attendanceStatus({ ...base, firstInMinutes: 9 * 60 + 5 })).toEqual({ status: 'present', lateMinutes: null });
    expect(attendanceStatus({ ...base, firstInMinutes: 9 * 60 + 6 })).toEqual({ status: 'late', lateMinutes: 6 });
  });
  it('leave wins over everything; no shift is a day off even with a badge-in', () => {
    expect(attendanceStatus({ ...base, onLeave: true, firstInMinutes: 10 * 60 }).status).toBe('on-leave');
    expect(attendanceStatus({ ...base, shiftStart: null, firstInMinutes: 10 * 60 }).status).toBe('day-off');
  });
});

describe('period problem', () => {
  it('a period of one day up to ATTENDANCE_SUMMARY_MAX_DAYS days is fine', () => {
    expect(ATTENDANCE_SUMMARY_MAX_DAYS).toBe(62);
    expect(periodProblem('2026-11-02', '2026-11-02')).toBeNull();
    expect(periodProblem('2026-01-01', '2026-03-03')).toBeNull(); // 62 days, both counted
    expect(periodProblem('2024-02-28', '2024-03-01')).toBeNull(); // across a leap day
  });
  it('names the last day of a period backwards or too long, in the server\u2019s words', () => {
    expect(periodProblem('2026-11-02', '2026-11-01')).toEqual({
      kind: 'backwards',
      field: 'to',
      message: 'must not be before the first day',
      code: 'day.beforeFirstDay',
      values: {},
    });
    expect(periodProblem('2026-01-01', '2026-03-04')).toEqual({
      kind: 'too-long',
      field: 'to',
      message: 'must be within 62 days of the first day',
      code: 'day.beyondFirstDay',
      values: { days: 62 },
    });
  });
  it('names a day that is no calendar date, the first day first', () => {
    expect(periodProblem('', '2026-11-02')).toMatchObject({ kind: 'not-a-date', field: 'from' });
    expect(periodProblem('2026-02-30', '2026-03-01')).toMatchObject({ kind: 'not-a-date', field: 'from', message: 'is not a real calendar date' });
    expect(periodProblem('2026-11-02', '2026-11-31')).toMatchObject({ kind: 'not-a-date', field: 'to' });
    expect(periodProblem('0002-11-02', '2026-11-03')).toMatchObject({ kind: 'not-a-date', field: 'from' }); // a year half typed
    expect(periodProblem('tomorrow', 'x')).toMatchObject({ kind: 'not-a-date', field: 'from' });
    expect(periodProblem('2026-11-02', undefined)).toEqual({
      kind: 'not-a-date',
      field: 'to',
      message: 'must be a date (YYYY-MM-DD)',
      code: 'date.notDate',
      values: {},
    });
  });
});

// ---- payroll rules ----
// The client's zone is UTC here: a badge-in `ms` after the midnight of MONDAY is at minute floor(ms / 60 000) of it.
const MONDAY = '2026-11-02';
const M = 60_000;
const at = (ms: number): BadgeIn => ({ at: new Date(Date.parse(`${MONDAY}T00:00:00Z`) + ms).toISOString(), minute: Math.floor(ms / M) });
const hm = (h: number, m = 0) => (h * 60 + m) * M;
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const office: AttendanceDay = {
  day: MONDAY,
  today: '2026-11-27',
  nowMinutes: 0,
  onLeave: false,
  shiftStart: '09:00',
  shiftEnd: '17:00',
  graceMinutes: 5,
  breakMinutes: 60,
  roundMinutes: 1,
  firstIn: null,
  lastOut: null,
};
const dayOff: AttendanceDay = { ...office, shiftStart: null, shiftEnd: null };
const worked = (d: AttendanceDay, from: number, to: number) => attendanceFigures({ ...d, firstIn: at(from), lastOut: at(to) });

describe('payroll rules by example', () => {
  it('takes Office hours’ 60-minute break off a day that spans 12:30–13:30: in 08:45, out 17:22 is 7:37 worked', () => {
    expect(breakWindow('09:00', '17:00', 60)).toEqual({ from: 12 * 60 + 30, to: 13 * 60 + 30 });
    expect(worked(office, hm(8, 45), hm(17, 22))).toEqual({
      status: 'present',
      lateMinutes: null,
      spanMinutes: 517,
      breakTakenMinutes: 60,
      workedMinutes: 457,
      overtimeMinutes: 0,
    });
  });
  it('takes only the part of the break window the day spans; a span shorter than the break loses nothing', () => {
    expect(worked(office, hm(8, 45), hm(12, 0))).toMatchObject({ breakTakenMinutes: 0, workedMinutes: 195 }); // gone before the break
    expect(worked(office, hm(8, 45), hm(13, 0))).toMatchObject({ breakTakenMinutes: 30, workedMinutes: 225 }); // half of it
    expect(worked(office, hm(13, 45), hm(17, 0))).toMatchObject({ status: 'late', lateMinutes: 285, breakTakenMinutes: 0, workedMinutes: 195 });
    expect(worked(office, hm(12, 40), hm(13, 10))).toMatchObject({ spanMinutes: 30, breakTakenMinutes: 30, workedMinutes: 0 }); // all of it in the break
    expect(worked({ ...office, breakMinutes: 0 }, hm(8, 45), hm(17, 22))).toMatchObject({ breakTakenMinutes: 0, workedMinutes: 517 });
    expect(breakWindow('09:00', '09:30', 60)).toBeNull(); // a shift no longer than its break has none
  });
  it('counts a badge-in on a day off as overtime, the break after 5 hours', () => {
    expect(worked(dayOff, hm(9), hm(13))).toEqual({
      status: 'day-off',
      lateMinutes: null,
      spanMinutes: 240,
      breakTakenMinutes: 0,
      workedMinutes: 240,
      overtimeMinutes: 240,
    });
    expect(worked(dayOff, hm(9), hm(14, 20))).toMatchObject({ breakTakenMinutes: 20, workedMinutes: 300, overtimeMinutes: 300 });
    expect(worked(dayOff, hm(9), hm(17))).toMatchObject({ breakTakenMinutes: 60, workedMinutes: 420, overtimeMinutes: 420 });
    expect(BREAK_WITHOUT_SHIFT_AFTER).toBe(300);
    // one badge-in: no worked time, no overtime
    expect(attendanceFigures({ ...dayOff, firstIn: at(hm(9)), lastOut: null })).toMatchObject({ status: 'day-off', workedMinutes: null, overtimeMinutes: 0 });
  });
  it('rounds down after the break, seconds dropped once', () => {
    expect(worked({ ...office, roundMinutes: 15 }, hm(8, 45), hm(17, 22))).toMatchObject({ workedMinutes: 450 }); // 457 down to 15s
    expect(worked(office, hm(8, 45) + 40_000, hm(17, 22) + 20_000)).toMatchObject({ spanMinutes: 516, breakTakenMinutes: 60, workedMinutes: 456 });
    for (const roundMinutes of [0, -5, 2.5, NaN]) expect(worked({ ...office, roundMinutes }, hm(8), hm(8, 7)).workedMinutes).toBe(7);
    expect(worked(office, hm(9), hm(9)).workedMinutes).toBeNull(); // the out not after the in
    expect(worked(office, hm(9), hm(8)).workedMinutes).toBeNull();
  });
  it('counts a night shift on the day it began, its break in the middle of the night', () => {
    const night = { shiftStart: '22:00', shiftEnd: '06:00' };
    expect(breakWindow('22:00', '06:00', 30)).toEqual({ from: 25 * 60 + 45, to: 26 * 60 + 15 }); // 01:45–02:15 the next morning
    expect(nightShiftRollover(night, night)).toBe(14 * 60); // halfway from 06:00 to 22:00
    expect(nightShiftRollover(night, { shiftStart: '09:00', shiftEnd: '17:00' })).toBe(7 * 60 + 30);
    expect(nightShiftRollover({ shiftStart: '09:00', shiftEnd: '17:00' }, night)).toBe(0);
    const swipe = (h: number, m: number): BadgeIn => ({ at: at(hm(h, m)).at, minute: h * 60 + m });
    const [sunday, monday, tuesday] = clockingDays([
      { ...night, swipes: [] },
      { ...night, swipes: [swipe(21, 55)] },
      {
        ...night,
        swipes: [
          { at: at(hm(24 + 6, 10)).at, minute: 6 * 60 + 10 },
          { at: at(hm(24 + 21, 50)).at, minute: 21 * 60 + 50 },
        ],
      },
    ]);
    expect(sunday).toEqual({ firstIn: null, lastOut: null });
    expect(monday).toEqual({ firstIn: swipe(21, 55), lastOut: { at: at(hm(30, 10)).at, minute: 30 * 60 + 10 } });
    expect(tuesday.firstIn?.minute).toBe(21 * 60 + 50);
    expect(attendanceFigures({ ...office, ...night, breakMinutes: 30, ...monday })).toMatchObject({
      status: 'present',
      spanMinutes: 495,
      breakTakenMinutes: 30,
      workedMinutes: 465,
    });
  });
  it('an out after midnight of a day shift is the next day’s', () => {
    const day = { shiftStart: '09:00', shiftEnd: '17:00' };
    const [monday, tuesday] = clockingDays([
      { ...day, swipes: [at(hm(9))] },
      { ...day, swipes: [{ at: at(hm(24, 30)).at, minute: 30 }] },
    ]);
    expect(monday.lastOut).toBeNull();
    expect(tuesday.firstIn?.minute).toBe(30);
  });
});

// any day: a shift (or none, or a night shift), a break, grace, rounding, an in and an out with their seconds
const anyShift = fc.oneof(
  fc.constant({ shiftStart: null as string | null, shiftEnd: null as string | null }),
  fc.record({ shiftStart: fc.integer({ min: 0, max: 1439 }).map(hhmm), shiftEnd: fc.integer({ min: 0, max: 1439 }).map(hhmm) }),
);
const anyRound = fc.constantFrom(1, 5, 6, 10, 15, 30, 60, 0, -5);
const anyDay = fc.record({
  shift: anyShift,
  breakMinutes: fc.integer({ min: 0, max: 240 }),
  graceMinutes: fc.integer({ min: 0, max: 120 }),
  roundMinutes: anyRound,
  onLeave: fc.boolean(),
  inMs: fc.integer({ min: 0, max: 2 * WHOLE_DAY * M - 1 }),
  spanMs: fc.integer({ min: 0, max: 20 * 60 * M }),
});
type AnyDay = {
  shift: { shiftStart: string | null; shiftEnd: string | null };
  breakMinutes: number;
  graceMinutes: number;
  roundMinutes: number;
  onLeave: boolean;
  inMs: number;
  spanMs: number;
};
const figuresOf = (d: AnyDay, outMs = d.inMs + d.spanMs) =>
  attendanceFigures({
    ...office,
    ...d.shift,
    breakMinutes: d.breakMinutes,
    graceMinutes: d.graceMinutes,
    roundMinutes: d.roundMinutes,
    onLeave: d.onLeave,
    firstIn: at(d.inMs),
    lastOut: at(outMs),
  });
const roundOf = (r: number) => (Number.isInteger(r) && r > 0 ? r : 1);

describe('payroll rules as properties', () => {
  it('worked time is never negative, never more than the span, and rounded down consistently after the break', () => {
    fc.assert(
      fc.property(anyDay, (d) => {
        const f = figuresOf(d);
        if (d.spanMs === 0) return f.workedMinutes === null && f.overtimeMinutes === 0 && f.breakTakenMinutes === 0;
        const round = roundOf(d.roundMinutes);
        expect(f.spanMinutes).toBe(Math.floor(d.spanMs / M));
        expect(f.workedMinutes).toBeGreaterThanOrEqual(0);
        expect(f.workedMinutes! % round).toBe(0);
        const paid = f.spanMinutes! - f.breakTakenMinutes;
        expect(f.workedMinutes! <= paid && paid < f.workedMinutes! + round).toBe(true);
        return true;
      }),
      { numRuns: 2000 },
    );
  });
  it('the break is taken at most once: never more than the schedule’s break nor the span', () => {
    fc.assert(
      fc.property(anyDay, (d) => {
        const f = figuresOf(d);
        expect(f.breakTakenMinutes).toBeGreaterThanOrEqual(0);
        expect(f.breakTakenMinutes).toBeLessThanOrEqual(d.breakMinutes);
        expect(f.breakTakenMinutes).toBeLessThanOrEqual(f.spanMinutes ?? 0);
        return true;
      }),
      { numRuns: 2000 },
    );
  });
  it('staying longer never makes worked time less (the same in, a later out; the same out, an earlier in)', () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: 0, max: 6 * 60 * M }), (d, more) => {
        const a = figuresOf(d);
        const later = figuresOf(d, d.inMs + d.spanMs + more);
        expect(later.workedMinutes ?? 0).toBeGreaterThanOrEqual(a.workedMinutes ?? 0);
        const earlier = d.inMs >= more ? figuresOf({ ...d, inMs: d.inMs - more, spanMs: d.spanMs + more }) : later;
        expect(earlier.workedMinutes ?? 0).toBeGreaterThanOrEqual(a.workedMinutes ?? 0);
        return true;
      }),
      { numRuns: 2000 },
    );
  });
  it('a day off’s worked time is all overtime and labelled day off; a working day has none', () => {
    fc.assert(
      fc.property(anyDay, (d) => {
        const f = figuresOf(d);
        if (f.status === 'day-off') expect(f.overtimeMinutes).toBe(f.workedMinutes ?? 0);
        else expect(f.overtimeMinutes).toBe(0);
        expect(f.status === 'day-off').toBe(!d.onLeave && d.shift.shiftStart === null);
        return true;
      }),
      { numRuns: 1000 },
    );
  });
  it('a night shift’s badge-ins, in around its start and out around its end the next morning, count on the day it began', () => {
    const nightShift = fc.integer({ min: 12 * 60, max: 1439 }).chain((start) =>
      fc.record({
        start: fc.constant(start),
        end: fc.integer({ min: Math.max(0, start - 22 * 60), max: start - 120 }), // at least 2 hours on and 2 off
        early: fc.integer({ min: -30 * M, max: 30 * M }),
        late: fc.integer({ min: -30 * M, max: 30 * M }),
        breakMinutes: fc.integer({ min: 0, max: 120 }),
      }),
    );
    fc.assert(
      fc.property(nightShift, ({ start, end, early, late, breakMinutes }) => {
        const shift = { shiftStart: hhmm(start), shiftEnd: hhmm(end) };
        const inMs = WHOLE_DAY * M + start * M + early; // Monday (the middle day) around the start
        const outMs = 2 * WHOLE_DAY * M + end * M + late; // Tuesday morning around the end
        const byDay: BadgeIn[][] = [[], [], [], []];
        for (const ms of [inMs, outMs]) {
          const day = Math.floor(ms / (WHOLE_DAY * M));
          byDay[day].push({ at: at(ms).at, minute: Math.floor(ms / M) - day * WHOLE_DAY });
        }
        const days = clockingDays(byDay.map((swipes) => ({ ...shift, swipes })));
        expect(days[1].firstIn?.at).toBe(at(inMs).at);
        expect(days[1].lastOut?.at).toBe(at(outMs).at);
        expect([days[0], days[2], days[3]].every((x) => x.firstIn === null)).toBe(true);
        const f = attendanceFigures({ ...office, ...shift, breakMinutes, ...days[1] });
        expect(f.spanMinutes).toBe(Math.floor((outMs - inMs) / M));
        // the whole night (well before to well after the break window) loses exactly its break
        const w = breakWindow(shift.shiftStart, shift.shiftEnd, breakMinutes);
        if (w && days[1].firstIn!.minute < w.from && days[1].lastOut!.minute >= w.to) expect(f.breakTakenMinutes).toBe(breakMinutes);
        return true;
      }),
      { numRuns: 1000 },
    );
  });
  it('no badge-in counts on two days: each day’s in and out come after the day before’s', () => {
    const days = fc.array(fc.record({ shift: anyShift, swipes: fc.uniqueArray(fc.integer({ min: 0, max: WHOLE_DAY * M - 1 }), { maxLength: 4 }) }), {
      minLength: 2,
      maxLength: 8,
    });
    fc.assert(
      fc.property(days, (list) => {
        const input = list.map((d, i) => ({
          ...d.shift,
          swipes: [...d.swipes].sort((a, b) => a - b).map((ms) => ({ at: at(i * WHOLE_DAY * M + ms).at, minute: Math.floor(ms / M) })),
        }));
        const out = clockingDays(input);
        let last = -Infinity;
        for (const d of out) {
          for (const c of [d.firstIn, d.lastOut])
            if (c) {
              expect(Date.parse(c.at)).toBeGreaterThan(last);
              last = Date.parse(c.at);
            }
        }
        // every badge-in of the period is inside some day's in..out, or is a lone in
        const counted = out.flatMap((d) => [d.firstIn, d.lastOut]).filter(Boolean).length;
        expect(counted).toBeLessThanOrEqual(input.reduce((n, d) => n + d.swipes.length, 0));
        return true;
      }),
      { numRuns: 1000 },
    );
  });
  it('the total of a period is the sum of its days', () => {
    const member = fc.record({ identityId: fc.integer({ min: 1, max: 4 }), teamId: fc.integer({ min: 1, max: 2 }) });
    const period = fc.array(fc.array(fc.tuple(member, anyDay), { maxLength: 6 }), { minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(period, (days) => {
        const rows: DailyAttendanceRow[][] = days.map((list) => {
          const seen = new Set<string>();
          return list
            .filter(([m]) => !seen.has(`${m.teamId}:${m.identityId}`) && !!seen.add(`${m.teamId}:${m.identityId}`))
            .map(([m, d]) => {
              const f = figuresOf(d);
              return {
                ...m,
                name: `M${m.identityId}`,
                employeeNo: null,
                team: `T${m.teamId}`,
                ...d.shift,
                graceMinutes: d.graceMinutes,
                breakMinutes: d.breakMinutes,
                firstIn: null,
                lastOut: null,
                leave: d.onLeave ? 'AL' : null,
                status: f.status,
                lateMinutes: f.lateMinutes,
                workedMinutes: f.workedMinutes,
                breakTakenMinutes: f.breakTakenMinutes,
                overtimeMinutes: f.overtimeMinutes,
              };
            });
        });
        const whole = summariseDays(rows);
        for (const t of whole) {
          const each = rows.map((r) => summariseDays([r]).find((x) => x.teamId === t.teamId && x.identityId === t.identityId));
          const sum = (k: 'workedMinutes' | 'overtimeMinutes' | 'lateMinutes' | 'scheduledDays' | 'presentDays' | 'lateDays' | 'absentDays' | 'leaveDays') =>
            each.reduce((n, x) => n + (x?.[k] ?? 0), 0);
          for (const k of ['workedMinutes', 'overtimeMinutes', 'lateMinutes', 'scheduledDays', 'presentDays', 'lateDays', 'absentDays', 'leaveDays'] as const)
            expect([k, t[k]]).toEqual([k, sum(k)]);
          const mine = rows.flat().filter((r) => r.teamId === t.teamId && r.identityId === t.identityId);
          expect(t.workedMinutes).toBe(mine.reduce((n, r) => n + (r.workedMinutes ?? 0), 0));
          expect(t.overtimeMinutes).toBeLessThanOrEqual(t.workedMinutes);
        }
        return true;
      }),
      { numRuns: 500 },
    );
  });
});

// The mutation run of 2026-12-02 (docs/TESTING.md) left these alive: the period's totals were only checked against
// themselves (the sum of a period against the sum of its days), and the day's place against today, the shift and break
// edges and the night shift's rollover minute had no example. Each expectation below is worked out by hand.
describe('payroll edges worked out by hand', () => {
  const row = (status: DailyAttendanceRow['status'], extra: Partial<DailyAttendanceRow> = {}): DailyAttendanceRow => ({
    identityId: 7,
    name: 'Ann Lee',
    employeeNo: 'E7',
    teamId: 1,
    team: 'Ops',
    shiftStart: '09:00',
    shiftEnd: '17:00',
    graceMinutes: 5,
    breakMinutes: 30,
    firstIn: null,
    lastOut: null,
    leave: null,
    status,
    lateMinutes: null,
    workedMinutes: null,
    breakTakenMinutes: 0,
    overtimeMinutes: 0,
    ...extra,
  });
  it('sums a week day by day: worked, present, late with its minutes, absent, on leave (not scheduled), a day off’s overtime', () => {
    const week = [
      [row('present', { workedMinutes: 450 })],
      [row('late', { lateMinutes: 12, workedMinutes: 430 })],
      [row('absent')],
      [row('on-leave', { leave: 'AL' })],
      [row('day-off', { shiftStart: null, shiftEnd: null, workedMinutes: 120, overtimeMinutes: 120 })],
      // the same person on a second team is a row of their own
      [row('late', { teamId: 2, team: 'Gate', lateMinutes: 20, workedMinutes: 400 })],
    ];
    const who = { identityId: 7, name: 'Ann Lee', employeeNo: 'E7' };
    expect(summariseDays(week)).toEqual([
      {
        ...who,
        teamId: 1,
        team: 'Ops',
        scheduledDays: 3,
        presentDays: 2,
        lateDays: 1,
        absentDays: 1,
        leaveDays: 1,
        workedMinutes: 1000,
        lateMinutes: 12,
        overtimeMinutes: 120,
      },
      {
        ...who,
        teamId: 2,
        team: 'Gate',
        scheduledDays: 1,
        presentDays: 1,
        lateDays: 1,
        absentDays: 0,
        leaveDays: 0,
        workedMinutes: 400,
        lateMinutes: 20,
        overtimeMinutes: 0,
      },
    ]);
  });
  it('a day without a badge-in: not yet today before start plus grace, absent after; not yet ahead of today; absent before it', () => {
    const today = { ...office, day: '2026-11-27', today: '2026-11-27' };
    expect(attendanceFigures({ ...today, nowMinutes: 9 * 60 + 5 })).toMatchObject({ status: 'not-yet', workedMinutes: null, spanMinutes: null });
    expect(attendanceFigures({ ...today, nowMinutes: 9 * 60 + 6 }).status).toBe('absent');
    expect(attendanceFigures({ ...today, day: '2026-11-28', nowMinutes: 23 * 60 }).status).toBe('not-yet');
    expect(attendanceFigures({ ...today, day: '2026-11-26', nowMinutes: 0 }).status).toBe('absent');
  });
  it('a shift needs both ends; one that ends when it starts runs 24 hours; no break window without a break or longer than it', () => {
    expect(shiftSpan('09:00', null)).toBeNull();
    expect(shiftSpan(null, '17:00')).toBeNull();
    expect(shiftSpan('09:00', '09:00')).toEqual({ start: 540, end: 540 + WHOLE_DAY });
    expect(shiftSpan('22:00', '06:00')).toEqual({ start: 1320, end: 360 + WHOLE_DAY });
    expect(breakWindow('09:00', '17:00', 0)).toBeNull();
    expect(breakWindow('09:00', '09:30', 30)).toBeNull();
    expect(breakWindow('09:00', '09:31', 30)).toEqual({ from: 540, to: 570 });
  });
  it('a badge-in at the rollover minute itself is the new day’s, one a minute before it closes the night shift', () => {
    // a night shift 22:00-06:00 and a day off after it: the rollover is half way from 06:00 to the night start, 14:00
    expect(nightShiftRollover({ shiftStart: '22:00', shiftEnd: '06:00' }, { shiftStart: null, shiftEnd: null })).toBe(14 * 60);
    const tue = (minute: number): BadgeIn => ({ at: new Date(Date.parse('2026-11-03T00:00:00Z') + minute * M).toISOString(), minute });
    const days = clockingDays([
      { shiftStart: '22:00', shiftEnd: '06:00', swipes: [at(hm(22))] },
      { shiftStart: null, shiftEnd: null, swipes: [tue(839), tue(840), tue(900)] },
    ]);
    expect(days[0]).toEqual({ firstIn: at(hm(22)), lastOut: { ...tue(839), minute: 839 + WHOLE_DAY } });
    expect(days[1]).toEqual({ firstIn: tue(840), lastOut: tue(900) });
  });
});
