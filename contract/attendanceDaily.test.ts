// The daily attendance rules (contract/attendanceDaily.ts) on the cases the server test cannot set the clock for:
// today before and after the shift's start plus grace, and the order the rules are checked in.
import { describe, expect, it } from 'vitest';
import { attendanceStatus } from './attendanceDaily';

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
