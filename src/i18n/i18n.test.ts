import { describe, expect, it } from 'vitest';
import { MESSAGES, t, timeAgoLabel } from './index';

describe('message tables', () => {
  it('has every English key in zh-CN too', () => {
    expect(Object.keys(MESSAGES['zh-CN']).sort()).toEqual(Object.keys(MESSAGES.en).sort());
  });
  it('has a real translation of every key in both languages: none empty, none left in English', () => {
    const missing: string[] = [];
    for (const key of Object.keys(MESSAGES.en) as (keyof typeof MESSAGES.en)[]) {
      const en = MESSAGES.en[key];
      const zh = MESSAGES['zh-CN'][key];
      if (!en?.trim()) missing.push(`en.${key}`);
      if (!zh?.trim() || !/[\u4e00-\u9fff]/.test(zh)) missing.push(`zh-CN.${key}`);
    }
    expect(missing).toEqual([]);
  });
  it('keeps the same placeholders in both languages', () => {
    const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const key of Object.keys(MESSAGES.en) as (keyof typeof MESSAGES.en)[]) {
      expect(holes(MESSAGES['zh-CN'][key]), key).toEqual(holes(MESSAGES.en[key]));
    }
    expect(t('timeZoneHelp', 'zh-CN', { zone: 'GMT+8' })).toBe('所有页面均按此时区显示时间（当前 GMT+8）。');
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
