import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatInTimeZone } from 'date-fns-tz';
import {
  DATE_TIME_PATTERN,
  DISPLAY_LOCALES,
  TIME_AGO_LABELS,
  formatInZone,
  formatDate,
  formatDateTime,
  formatNumber,
  formatRelativeTime,
  formatSize,
  formatTimeAgo,
  isLatestVersion,
  relativeTime,
  resolveTimeZone,
  timeAgo,
  todayInZone,
  zoneLabel,
} from './format';
import { formatDateTimeInput, parseDateInput, parseDateTimeInput, readDateTimeInput, toUtcIso } from './dateInput';
import { clientToday } from './resources/derive';

describe('formatNumber', () => {
  it('keeps numbers under a thousand as they are', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
  });
  it('uses k, M, G, T, P and E suffixes and drops trailing zeros', () => {
    expect(formatNumber(1000)).toBe('1k');
    expect(formatNumber(1234)).toBe('1.2k');
    expect(formatNumber(2_500_000)).toBe('2.5M');
    expect(formatNumber(3e9)).toBe('3G');
    expect(formatNumber(4.56e12, 2)).toBe('4.56T');
    expect(formatNumber(7e15)).toBe('7P');
    expect(formatNumber(8.1e18)).toBe('8.1E');
    expect(formatNumber(-1500)).toBe('-1.5k');
  });
});

describe('formatSize', () => {
  it('shows MB, GB or TB with two decimals', () => {
    expect(formatSize(512)).toBe('512.00 MB');
    expect(formatSize(1536)).toBe('1.50 GB');
    expect(formatSize(3 * 1024 * 1024)).toBe('3.00 TB');
    expect(formatSize('2048')).toBe('2.00 GB');
  });
  it("shows '0 MB' for anything that is not a number", () => {
    for (const v of [undefined, null, 'abc', '', NaN, {}]) expect(formatSize(v)).toBe('0 MB');
  });
});

describe('relativeTime', () => {
  it('counts minutes under an hour, hours under a day, then days', () => {
    expect(relativeTime(59)).toEqual({ unit: 'minute', count: 0 });
    expect(relativeTime(125)).toEqual({ unit: 'minute', count: 2 });
    expect(relativeTime(3600)).toEqual({ unit: 'hour', count: 1 });
    expect(relativeTime(86399)).toEqual({ unit: 'hour', count: 23 });
    expect(relativeTime(86400 * 3)).toEqual({ unit: 'day', count: 3 });
    expect(formatRelativeTime(60)).toBe('1 minute');
    expect(formatRelativeTime(7200)).toBe('2 hours');
  });
});

describe('timeAgo', () => {
  const now = Date.UTC(2024, 5, 15, 12, 0, 0);
  it('says just now under 30 s', () => {
    expect(timeAgo(now - 29_000, now)).toEqual({ key: 'justNow' });
    expect(timeAgo(now - 30_000, now)).toEqual({ key: 'minutesAgo', count: 1 });
  });
  it('counts minutes under an hour and hours under a day, rounded up', () => {
    expect(timeAgo(now - 61_000, now)).toEqual({ key: 'minutesAgo', count: 2 });
    expect(timeAgo(now - 3_600_000, now)).toEqual({ key: 'hoursAgo', count: 1 });
    expect(timeAgo(now - 3_601_000, now)).toEqual({ key: 'hoursAgo', count: 2 });
  });
  it('says one day ago under two days, then gives the date', () => {
    expect(timeAgo(now - 86_400_000, now)).toEqual({ key: 'oneDayAgo' });
    const old = timeAgo(now - 2 * 86_400_000, now);
    expect(old).toEqual({ key: 'date', date: new Date(now - 2 * 86_400_000) });
  });
  it('accepts epoch seconds', () => {
    expect(timeAgo(Math.floor(now / 1000) - 120, now)).toEqual({ key: 'minutesAgo', count: 2 });
  });
  it('labels in zh-CN and English', () => {
    const zh = TIME_AGO_LABELS['zh-CN'];
    const en = TIME_AGO_LABELS.en;
    const fmt = (t: Parameters<typeof formatTimeAgo>[0], l: typeof zh) => formatTimeAgo(t, l === zh ? 'zh-CN' : 'en', 'Asia/Kolkata');
    expect(fmt({ key: 'justNow' }, zh)).toBe('刚刚');
    expect(fmt({ key: 'minutesAgo', count: 5 }, zh)).toBe('5分钟前');
    expect(fmt({ key: 'hoursAgo', count: 3 }, zh)).toBe('3小时前');
    expect(fmt({ key: 'oneDayAgo' }, zh)).toBe('1天前');
    expect(fmt({ key: 'date', date: new Date(Date.UTC(2024, 2, 5, 9, 7)) }, zh)).toBe('2024年3月5日 14:37:00');
    expect(fmt({ key: 'minutesAgo', count: 1 }, en)).toBe('1 minute ago');
    expect(fmt({ key: 'hoursAgo', count: 2 }, en)).toBe('2 hours ago');
    expect(fmt({ key: 'date', date: new Date(Date.UTC(2024, 2, 5, 9, 7)) }, en)).toBe('5 Mar 2024, 14:37:00');
  });
});

describe('toUtcIso', () => {
  it('turns a zoned date and time into ISO UTC without milliseconds', () => {
    expect(toUtcIso('2024-03-01', '10:30', 'Asia/Kuala_Lumpur')).toBe('2024-03-01T02:30:00Z');
    expect(toUtcIso('2024-03-01 10:30:15', undefined, 'UTC')).toBe('2024-03-01T10:30:15Z');
    expect(toUtcIso('2024-03-01T00:00', undefined, 'Asia/Kuala_Lumpur')).toBe('2024-02-29T16:00:00Z');
  });
  it('reads the local zone when none is given', () => {
    const local = new Date(2024, 0, 2, 3, 4, 5).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect(toUtcIso('2024-01-02', '03:04:05')).toBe(local);
  });
  it('returns null unless the date has three numbers and the time 2 or 3', () => {
    expect(toUtcIso('2024-03', '10:30', 'UTC')).toBeNull();
    expect(toUtcIso('2024-03-01-02', '10:30', 'UTC')).toBeNull();
    expect(toUtcIso('2024-xx-01', '10:30', 'UTC')).toBeNull();
    expect(toUtcIso('2024-03-01', '10', 'UTC')).toBeNull();
    expect(toUtcIso('2024-03-01', '10:30:00:00', 'UTC')).toBeNull();
    expect(toUtcIso('2024-03-01', '10:aa', 'UTC')).toBeNull();
    expect(toUtcIso('2024-03-01', undefined, 'UTC')).toBeNull();
    expect(toUtcIso('2024-02-31', '10:30', 'UTC')).toBeNull();
    expect(toUtcIso('2024-13-01', '10:30')).toBeNull();
  });
});

describe('isLatestVersion', () => {
  it("treats the word 'latest' as always up to date", () => {
    expect(isLatestVersion('latest', '9.9.9')).toBe(true);
    expect(isLatestVersion('0.0.1', 'latest')).toBe(true);
  });
  it('compares versions part by part as numbers', () => {
    expect(isLatestVersion('1.22.2', '1.22.2')).toBe(true);
    expect(isLatestVersion('v1.10.0', '1.9.9')).toBe(true);
    expect(isLatestVersion('1.9.9', '1.10.0')).toBe(false);
    expect(isLatestVersion('1.22', '1.22.1')).toBe(false);
  });
});

describe('one rule for time on every screen', () => {
  const at = '2026-11-23T09:02:05.123Z';
  it('shows an instant in the given zone, one format per locale', () => {
    expect(formatDateTime(at, 'Asia/Kolkata', 'en')).toBe('23 Nov 2026, 14:32:05');
    expect(formatDateTime(at, 'Asia/Kolkata', 'zh-CN')).toBe('2026年11月23日 14:32:05');
    expect(formatDateTime(at, 'America/Los_Angeles', 'en')).toBe('23 Nov 2026, 01:02:05');
    expect(formatDateTime(null, 'UTC', 'en')).toBe('—');
    expect(Object.keys(DATE_TIME_PATTERN).sort()).toEqual(['en', 'zh-CN']);
  });
  it('writes every instant as date-fns-tz does, through its cache of minutes too (any zone, DST days, LMT offsets with seconds)', () => {
    const zones = ['UTC', 'Asia/Kolkata', 'America/Los_Angeles', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Africa/Monrovia', 'Mars/Phobos'];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom(...zones),
        fc.constantFrom('en' as const, 'zh-CN' as const),
        fc.constantFrom('number', 'iso', 'date'),
        (ms, zone, locale, as) => {
          const value = as === 'number' ? ms : as === 'iso' ? new Date(ms).toISOString() : new Date(ms);
          const expected = formatInZone(ms, zone, DATE_TIME_PATTERN[locale]);
          expect(formatDateTime(value, zone, locale)).toBe(expected);
          expect(formatDateTime(value, zone, locale)).toBe(expected); // the second time from the cache
          expect(formatDateTime(ms + 999, zone, locale)).toBe(formatInZone(ms + 999, zone, DATE_TIME_PATTERN[locale]));
        },
      ),
      { numRuns: 2000 },
    );
    // 1 Jan 1900 in Monrovia was at -0:43:08: its minutes do not start at :00, so they are not shared
    expect(formatDateTime('1900-01-01T12:00:30Z', 'Africa/Monrovia', 'en')).toBe(formatInZone('1900-01-01T12:00:30Z', 'Africa/Monrovia', DATE_TIME_PATTERN.en));
  });
  it('names a zone at any instant as date-fns-tz does, through its cache of quarter hours too (DST changes included)', () => {
    // the oracle gets a Date: date-fns-tz names the instant 0 given as a number "GMT-8" in Los Angeles, not "PST"
    const direct = (zone: string, ms: number) => {
      try {
        const z = formatInTimeZone(new Date(ms), zone, 'zzz');
        return z === 'GMT' && zone === 'UTC' ? 'UTC' : z;
      } catch {
        return 'UTC';
      }
    };
    const zones = ['UTC', 'Europe/London', 'America/Los_Angeles', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Africa/Monrovia', 'Mars/Phobos'];
    // around the 2026 changes in London (29 Mar, 25 Oct 01:00 UTC) and Los Angeles (8 Mar 10:00, 1 Nov 09:00 UTC)
    const edges = [Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1), Date.UTC(2026, 2, 8, 10), Date.UTC(2026, 10, 1, 9)];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: Date.UTC(1880, 0, 1), max: Date.UTC(2100, 0, 1) }),
          fc.constantFrom(...edges).chain((e) => fc.integer({ min: e - 3_600_000, max: e + 3_600_000 })),
        ),
        fc.constantFrom(...zones),
        (ms, zone) => {
          expect(zoneLabel(zone, ms)).toBe(direct(zone, ms));
          expect(zoneLabel(zone, ms)).toBe(direct(zone, ms)); // again, from the cache
        },
      ),
      { numRuns: 3000 },
    );
    expect(zoneLabel('America/Los_Angeles', 0)).toBe('PST'); // the epoch itself (fast-check found the oracle's slip there)
    expect(zoneLabel('Europe/London', Date.UTC(2026, 2, 29, 0, 59, 59))).toBe('GMT');
    expect(zoneLabel('Europe/London', Date.UTC(2026, 2, 29, 1, 0, 0))).toBe('GMT+1');
    // 6,000 calls of the date-fns-tz oracle: a few seconds on a quiet machine, 33-194 s at load 15-23 (five agents on
    // the 2 cores, 2026-12-04), past the suite's 30 s
  }, 300_000);
  it('names the zone where it matters, as it stood at that instant', () => {
    expect(formatDateTime(at, 'Asia/Kolkata', 'en', true)).toBe('23 Nov 2026, 14:32:05 GMT+5:30');
    expect(zoneLabel('Asia/Kolkata', at)).toBe('GMT+5:30');
    expect(zoneLabel('America/Los_Angeles', '2026-07-01T00:00:00Z')).toBe('PDT');
    expect(zoneLabel('America/Los_Angeles', at)).toBe('PST');
    expect(zoneLabel('UTC', at)).toBe('UTC');
  });
  it('falls back from the profile zone to the client’s, then the browser’s, then UTC', () => {
    expect(resolveTimeZone('Asia/Kolkata', 'Europe/London', 'America/New_York')).toBe('Asia/Kolkata');
    expect(resolveTimeZone('', 'Europe/London', 'America/New_York')).toBe('Europe/London');
    expect(resolveTimeZone('Mars/Olympus', null, 'America/New_York')).toBe('America/New_York');
    expect(resolveTimeZone(undefined, undefined, undefined)).toBe('UTC');
  });
  it('shows calendar dates without moving them to another day', () => {
    expect(formatDate('2026-12-31', 'en')).toBe('31 Dec 2026');
    expect(formatDate('2026-12-31', 'zh-CN')).toBe('2026年12月31日');
    expect(formatDate(null, 'en')).toBe('—');
    expect(formatDate('soon', 'en')).toBe('soon');
  });
  it('reads and fills date-time fields in the user’s zone, not the browser’s; today is the zone’s day', () => {
    expect(formatDateTimeInput(at, 'en', 'Asia/Kolkata')).toBe('23 Nov 2026 14:32');
    expect(parseDateTimeInput('23 Nov 2026 14:32', 'en', 'Asia/Kolkata')).toBe('2026-11-23T09:02:00Z');
    expect(parseDateTimeInput('not a date', 'en', 'Asia/Kolkata')).toBeNull();
    expect(todayInZone('Pacific/Kiritimati', Date.parse('2026-11-23T12:00:00Z'))).toBe('2026-11-24');
    expect(todayInZone('Pacific/Pago_Pago', Date.parse('2026-11-23T08:00:00Z'))).toBe('2026-11-22');
  });
});

describe("a date field's input (issue 29)", () => {
  it('takes what the console shows, in either language, and ISO 8601, and gives the calendar day', () => {
    for (const ymd of ['2026-11-28', '2024-02-29', '1999-01-01', '2030-12-31']) {
      for (const locale of DISPLAY_LOCALES) expect(parseDateInput(formatDate(ymd, locale), locale), `${ymd} ${locale}`).toBe(ymd);
      expect(parseDateInput(ymd, 'en')).toBe(ymd);
    }
    expect(parseDateInput('28 nov 2026', 'en')).toBe('2026-11-28');
    expect(parseDateInput(' 28  November 2026 ', 'en')).toBe('2026-11-28');
    expect(parseDateInput('Nov 28, 2026', 'en')).toBe('2026-11-28');
    expect(parseDateInput('28/11/2026', 'en')).toBe('2026-11-28');
    expect(parseDateInput('28 Nov 2026', 'zh-CN')).toBe('2026-11-28');
  });

  it('refuses what is no day', () => {
    for (const bad of ['', '31 Feb 2026', '2026-02-30', '2026-13-01', 'tomorrow', '28 Nov', '28 Nov 26', '11/28/2026', '0999-01-01']) {
      expect(parseDateInput(bad, 'en'), bad).toBeNull();
    }
  });
});

describe('readDateTimeInput (the date-time field, issue 29)', () => {
  const KL = 'Asia/Kuala_Lumpur'; // +8, no summer time
  const NY = 'America/New_York'; // summer time from 8 Mar 2026 02:00 (clocks skip to 03:00) to 1 Nov 2026 02:00 (back to 01:00)

  it('takes what the field writes, in either language, as a wall clock of the user\u2019s zone', () => {
    for (const iso of ['2026-11-28T06:05:00Z', '2024-02-29T23:59:00Z', '2027-01-01T00:00:00Z']) {
      for (const locale of DISPLAY_LOCALES)
        for (const zone of [KL, NY, 'Australia/Adelaide', 'UTC']) {
          const shown = formatDateTimeInput(iso, locale, zone);
          expect(parseDateTimeInput(shown, locale, zone), `${iso} ${locale} ${zone} '${shown}'`).toBe(iso);
        }
    }
    expect(formatDateTimeInput('2026-11-28T06:05:00Z', 'en', KL)).toBe('28 Nov 2026 14:05');
    expect(formatDateTimeInput('2026-11-28T06:05:00Z', 'zh-CN', KL)).toBe('2026年11月28日 14:05');
  });

  it('takes the date in the date field\u2019s shapes and a time of day in common shapes', () => {
    const want = '2026-11-28T06:05:00Z'; // 14:05 in Kuala Lumpur
    for (const typed of [
      '28 Nov 2026 14:05',
      '28 nov 2026, 14:05',
      '28 November 2026 14.05',
      'Nov 28, 2026 2:05 pm',
      '28/11/2026 2:05PM',
      '2026-11-28T14:05',
      '2026-11-28 14:05',
      '2026-11-28 14:05:59',
      '  28  Nov 2026   14:05 ',
    ]) {
      expect(parseDateTimeInput(typed, 'en', KL), typed).toBe(want);
    }
    expect(parseDateTimeInput('28 Nov 2026 2pm', 'en', KL)).toBe('2026-11-28T06:00:00Z');
    expect(parseDateTimeInput('28 Nov 2026 12:00 am', 'en', KL)).toBe('2026-11-27T16:00:00Z');
    expect(parseDateTimeInput('2026年11月28日 14:05', 'zh-CN', KL)).toBe(want);
  });

  it('refuses what is no date, no time, or an impossible day', () => {
    for (const bad of [
      '',
      '28 Nov 2026',
      '14:05',
      '31 Feb 2026 10:00',
      '2026-02-29 10:00',
      '29 Feb 2025 10:00',
      '28 Nov 2026 24:00',
      '28 Nov 2026 14:60',
      '28 Nov 2026 25:00',
      '28 Nov 2026 13 pm',
      '11/28/2026 10:00',
      'tomorrow 10:00',
      '28 Nov 26 10:00',
    ]) {
      expect(readDateTimeInput(bad, 'en', KL), bad).toEqual({ problem: 'not a date and time' });
    }
  });

  it('says a time the user\u2019s zone skips (summer time\u2019s gap) is none, and reads a time passed twice as its first pass', () => {
    expect(readDateTimeInput('8 Mar 2026 02:30', 'en', NY)).toEqual({ problem: 'not a time in the zone' });
    expect(readDateTimeInput('8 Mar 2026 02:00', 'en', NY)).toEqual({ problem: 'not a time in the zone' });
    expect(parseDateTimeInput('8 Mar 2026 01:59', 'en', NY)).toBe('2026-03-08T06:59:00Z'); // EST, −5
    expect(parseDateTimeInput('8 Mar 2026 03:00', 'en', NY)).toBe('2026-03-08T07:00:00Z'); // EDT, −4
    // the same wall clock is a time in Kuala Lumpur, which keeps no summer time
    expect(parseDateTimeInput('8 Mar 2026 02:30', 'en', KL)).toBe('2026-03-07T18:30:00Z');
    // 1 Nov 2026 01:30 happens twice in New York: first in summer time (−4)
    expect(parseDateTimeInput('1 Nov 2026 01:30', 'en', NY)).toBe('2026-11-01T05:30:00Z');
    // Adelaide's gap (4 Oct 2026 02:00 → 03:00, +9:30 → +10:30)
    expect(readDateTimeInput('4 Oct 2026 02:15', 'en', 'Australia/Adelaide')).toEqual({ problem: 'not a time in the zone' });
  });

  it('writes nothing for no moment', () => {
    expect(formatDateTimeInput(null, 'en', KL)).toBe('');
    expect(formatDateTimeInput('soon', 'en', KL)).toBe('');
  });
});

describe("clientToday (a rule of today's date, issue 29)", () => {
  it("is the client's day, the same on the form and the server, whatever the viewer's zone; UTC without a known zone", () => {
    const at = Date.parse('2026-11-23T12:00:00Z');
    expect(clientToday('Pacific/Kiritimati', at)).toBe('2026-11-24');
    expect(clientToday('Pacific/Pago_Pago', at)).toBe('2026-11-23');
    expect(clientToday('Asia/Kuala_Lumpur', Date.parse('2026-11-23T16:30:00Z'))).toBe('2026-11-24');
    expect(clientToday(null, at)).toBe('2026-11-23');
    expect(clientToday('Mars/Olympus', Date.parse('2026-11-23T23:30:00Z'))).toBe('2026-11-23');
  });
});
