import { describe, expect, it } from 'vitest';
import { ALARM_NOTE_MAX } from '../../../contract';
import { alarmNoteState } from './alarmNote';

describe('the alarm process note (issue 29: it was cut at 1,000 characters without a word)', () => {
  it('counts toward the limit in the reader\u2019s number format', () => {
    expect(ALARM_NOTE_MAX).toBe(1000);
    expect(alarmNoteState('x'.repeat(412), 'en').counter).toBe('412 / 1,000');
    expect(alarmNoteState('', 'en').counter).toBe('0 / 1,000');
    expect(alarmNoteState('x'.repeat(1234), 'de-DE').counter).toBe('1.234 / 1.000');
  });
  it('takes up to the limit and refuses one character more with the contract\u2019s sentence, keeping the text whole', () => {
    const full = alarmNoteState('x'.repeat(1000), 'en');
    expect(full).toEqual({ counter: '1,000 / 1,000', problem: undefined, over: false });
    const over = alarmNoteState('x'.repeat(1001), 'en');
    expect(over).toEqual({
      counter: '1,001 / 1,000',
      problem: { field: 'note', message: 'must be at most 1000 characters', code: 'text.tooLong', values: { max: 1000 } },
      over: true,
    });
  });
  it('refuses a blank note without calling it too long', () => {
    expect(alarmNoteState('   ', 'en')).toMatchObject({ problem: { message: 'is required' }, over: false });
  });
});
