// The daily attendance rules (contract/attendanceDaily.ts) on the cases the server test cannot set the clock for:
// today before and after the shift's start plus grace, and the order the rules are checked in; and the period check
// the server and the screens share.
import { describe, expect, it } from 'vitest';
import { ATTENDANCE_SUMMARY_MAX_DAYS, attendanceStatus, periodProblem } from './attendanceDaily';

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
    expect(periodProblem('2026-11-02', '2026-11-01')).toEqual({ kind: 'backwards', field: 'to', message: 'must not be before the first day' });
    expect(periodProblem('2026-01-01', '2026-03-04')).toEqual({ kind: 'too-long', field: 'to', message: 'must be within 62 days of the first day' });
  });
  it('names a day that is no calendar date, the first day first', () => {
    expect(periodProblem('', '2026-11-02')).toMatchObject({ kind: 'not-a-date', field: 'from' });
    expect(periodProblem('2026-02-30', '2026-03-01')).toEqual({ kind: 'not-a-date', field: 'from', message: 'is not a real calendar date' });
    expect(periodProblem('2026-11-02', '2026-11-31')).toMatchObject({ kind: 'not-a-date', field: 'to' });
    expect(periodProblem('0002-11-02', '2026-11-03')).toMatchObject({ kind: 'not-a-date', field: 'from' }); // a year half typed
    expect(periodProblem('tomorrow', 'x')).toMatchObject({ kind: 'not-a-date', field: 'from' });
    expect(periodProblem('2026-11-02', undefined)).toEqual({ kind: 'not-a-date', field: 'to', message: 'must be a date (YYYY-MM-DD)' });
  });
});
