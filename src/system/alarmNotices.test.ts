import { describe, expect, it } from 'vitest';
import { titleWithBadge } from './alarmNotices';

describe('the alarm title badge', () => {
  it('prefixes the open count once and drops it at zero', () => {
    expect(titleWithBadge('Alarms · Gatehouse', 3)).toBe('(3) Alarms · Gatehouse');
    expect(titleWithBadge('(3) Alarms · Gatehouse', 4)).toBe('(4) Alarms · Gatehouse');
    expect(titleWithBadge('(4) Alarms · Gatehouse', 0)).toBe('Alarms · Gatehouse');
  });
});
