import { describe, expect, it } from 'vitest';
import { MESSAGES, t, timeAgoLabel } from './index';

describe('message tables', () => {
  it('has every English key in zh-CN too', () => {
    expect(Object.keys(MESSAGES['zh-CN']).sort()).toEqual(Object.keys(MESSAGES.en).sort());
  });
  it('speaks English by default', () => {
    expect(t('signIn')).toBe('Sign in');
    expect(t('signIn', 'zh-CN')).toBe('登录');
  });
  it('labels time-ago in both languages', () => {
    const now = Date.UTC(2024, 0, 2, 12, 0, 0);
    expect(timeAgoLabel(now - 10_000, now)).toBe('just now');
    expect(timeAgoLabel(now - 5 * 60_000, now, 'zh-CN')).toBe('5分钟前');
    expect(timeAgoLabel(new Date(now - 3 * 3600_000).toISOString(), now)).toBe('3 hours ago');
  });
});
