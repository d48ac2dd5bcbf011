// The first day of the week follows the region of the console's language (issue 10).
import { describe, expect, it } from 'vitest';
import { firstDayOfWeek, regionalTag } from './week';

describe('the first day of the week', () => {
  it('is Sunday for English in the United States, Monday in Britain, and Monday for Chinese', () => {
    expect(firstDayOfWeek('en', ['en-US'])).toBe(0);
    expect(firstDayOfWeek('en', ['en-GB', 'en-US'])).toBe(1);
    expect(firstDayOfWeek('zh-CN', ['en-US'])).toBe(1);
    expect(firstDayOfWeek('zh-CN', ['zh-CN'])).toBe(1);
  });

  it('takes the browser region of the console language only', () => {
    expect(regionalTag('en', ['de-DE', 'en-AU'])).toBe('en-AU');
    expect(regionalTag('en', ['de-DE'])).toBe('en');
    expect(regionalTag('zh-CN', ['zh-TW', 'en-US'])).toBe('zh-CN');
    // a Saturday-first region exists too: the answer is the CLDR's, not a guess
    expect(firstDayOfWeek('en', ['en-EG'])).toBe(6);
  });
});
