// The alarm board's notices and the alarm notifications in the operator's language (issue 48): in English exactly what
// the alarms machine says (its own title and message, the oracle), in 简体中文 the same fields in Chinese with the
// alarm's message said by its key.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../../contract';
import { noticeFor } from '../../machines/alarms.notices';
import { forcedDoorAlarm } from '../../model-tests/events';
import { loadLocale } from './index';
import { alarmNoticeWords, alarmNotificationWords } from './alarmNotices';

const keyed = (over: Partial<Event> & Pick<Event, 'id'>): Event =>
  forcedDoorAlarm({
    message: 'Front door: Door forced open',
    messageCode: 'event.atDoor',
    messageValues: { door: 'Front door', event: 'Door forced open' },
    ...over,
  });
const one = noticeFor([keyed({ id: 1 })], 'alarm', 1, 1);
const many = noticeFor([keyed({ id: 1 }), keyed({ id: 2, priority: 3 }), keyed({ id: 3, priority: 1, message: '' })], 'summary', 2, 1);
const single = noticeFor([keyed({ id: 4, priority: 2 })], 'summary', 3, 1);

beforeAll(() => loadLocale('zh-CN'));

describe('alarm notices in the operator’s language', () => {
  it('in English, says exactly what the alarms machine says', () => {
    for (const n of [one, many, single]) expect(alarmNoticeWords(n, 'en')).toEqual({ title: n.title, message: n.message });
    expect(one.title).toBe('P1 alarm: Front door');
    expect(many.title).toBe('3 new alarms, 2 P1');
    expect(single.title).toBe('1 new alarm');
  });

  it('in 简体中文, says the fields in Chinese and the alarm’s message by its key', () => {
    expect(alarmNoticeWords(one, 'zh-CN')).toEqual({ title: 'P1 报警：Front door', message: expect.stringMatching(/^Front door：/) });
    const summary = alarmNoticeWords(many, 'zh-CN');
    expect(summary.title).toBe('3 条新报警，其中 2 条 P1');
    expect(summary.message).toMatch(/^最紧急：P1 Front door（Front door：.+）$/);
    expect(alarmNoticeWords(single, 'zh-CN').title).toBe('1 条新报警');
  });

  it('says an alarm notification by its key too, and a message without one as sent', () => {
    const n = {
      name: 'Night desk',
      priority: 1,
      message: 'Front door: Door forced open',
      messageCode: 'event.atDoor',
      messageValues: { door: 'Front door', event: 'Door forced open' },
    };
    expect(alarmNotificationWords(n, 'en')).toBe('Night desk · P1: Front door: Door forced open');
    expect(alarmNotificationWords(n, 'zh-CN')).toMatch(/^Night desk · P1 报警：Front door：/);
    expect(alarmNotificationWords({ name: 'Night desk', priority: 2, message: 'Written by a device' }, 'zh-CN')).toBe(
      'Night desk · P2 报警：Written by a device',
    );
  });
});
