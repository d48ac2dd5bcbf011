// Display helpers of §5 and §9, shared by the console and (for reports) the server. Pure: time comes in as arguments.
import { formatZoned } from './zonedFormat';

const SI = [
  { value: 1e18, symbol: 'E' },
  { value: 1e15, symbol: 'P' },
  { value: 1e12, symbol: 'T' },
  { value: 1e9, symbol: 'G' },
  { value: 1e6, symbol: 'M' },
  { value: 1e3, symbol: 'k' },
] as const;

/** §9: 1234 → '1.2k', 2500000 → '2.5M' (k, M, G, T, P, E); trailing zeros dropped; below 1000 as is. */
export function formatNumber(num: number, digits = 1): string {
  if (!Number.isFinite(num)) return String(num);
  const sign = num < 0 ? '-' : '';
  const abs = Math.abs(num);
  for (const { value, symbol } of SI) {
    if (abs >= value) {
      return sign + (abs / value).toFixed(digits).replace(/\.0+$|(\.[0-9]*[1-9])0+$/, '$1') + symbol;
    }
  }
  return String(num);
}

/** §9: a size given in MB shown as MB, GB or TB with 2 decimals; '0 MB' for anything that is not a number. */
export function formatSize(mb: unknown): string {
  const n = typeof mb === 'number' ? mb : typeof mb === 'string' && mb.trim() !== '' ? Number(mb) : NaN;
  if (!Number.isFinite(n)) return '0 MB';
  if (Math.abs(n) < 1024) return `${n.toFixed(2)} MB`;
  if (Math.abs(n) < 1024 * 1024) return `${(n / 1024).toFixed(2)} GB`;
  return `${(n / 1024 / 1024).toFixed(2)} TB`;
}

export type RelativeUnit = 'minute' | 'hour' | 'day';
/** §9: a duration in seconds as whole minutes (under an hour), hours (under a day) or days. */
export function relativeTime(seconds: number): { unit: RelativeUnit; count: number } {
  const s = Math.max(0, seconds);
  if (s < 3600) return { unit: 'minute', count: Math.floor(s / 60) };
  if (s < 86400) return { unit: 'hour', count: Math.floor(s / 3600) };
  return { unit: 'day', count: Math.floor(s / 86400) };
}
export function formatRelativeTime(seconds: number): string {
  const { unit, count } = relativeTime(seconds);
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

export type TimeAgo =
  { key: 'justNow' } | { key: 'minutesAgo'; count: number } | { key: 'hoursAgo'; count: number } | { key: 'oneDayAgo' } | { key: 'date'; date: Date };

/**
 * §9 time-ago thresholds: under 30 s → just now; under an hour → minutes (rounded up); under a day → hours
 * (rounded up); under two days → one day ago; else the date. `time` is epoch ms, epoch s (10 digits) or a Date.
 */
export function timeAgo(time: number | Date, now: number): TimeAgo {
  const ms = time instanceof Date ? time.getTime() : String(Math.trunc(time)).length === 10 ? time * 1000 : time;
  const diff = (now - ms) / 1000;
  if (diff < 30) return { key: 'justNow' };
  if (diff < 3600) return { key: 'minutesAgo', count: Math.ceil(diff / 60) };
  if (diff < 86400) return { key: 'hoursAgo', count: Math.ceil(diff / 3600) };
  if (diff < 86400 * 2) return { key: 'oneDayAgo' };
  return { key: 'date', date: new Date(ms) };
}

export interface TimeAgoLabels {
  justNow: string;
  minutesAgo: (n: number) => string;
  hoursAgo: (n: number) => string;
  oneDayAgo: string;
}
/** Label sets for the i18n layer (zh-CN as the original, and English); older than two days is the locale's date-time. */
export const TIME_AGO_LABELS: Record<DisplayLocale, TimeAgoLabels> = {
  'zh-CN': {
    justNow: '刚刚',
    minutesAgo: (n) => `${n}分钟前`,
    hoursAgo: (n) => `${n}小时前`,
    oneDayAgo: '1天前',
  },
  en: {
    justNow: 'just now',
    minutesAgo: (n) => `${n} minute${n === 1 ? '' : 's'} ago`,
    hoursAgo: (n) => `${n} hour${n === 1 ? '' : 's'} ago`,
    oneDayAgo: '1 day ago',
  },
};
/** A time-ago label; a date (two days and older) in the viewer's zone and the locale's one date-time format. */
export function formatTimeAgo(t: TimeAgo, locale: DisplayLocale, timeZone: string): string {
  const labels = TIME_AGO_LABELS[locale];
  switch (t.key) {
    case 'justNow':
      return labels.justNow;
    case 'minutesAgo':
      return labels.minutesAgo(t.count);
    case 'hoursAgo':
      return labels.hoursAgo(t.count);
    case 'oneDayAgo':
      return labels.oneDayAgo;
    case 'date':
      return formatDateTime(t.date.toISOString(), timeZone, locale);
  }
}

const DIGITS = /^\d+$/;
/** §9: true when `current` is at least `latest`; the word 'latest' on either side always counts as up to date. */
export function isLatestVersion(current: string, latest: string): boolean {
  if (current?.trim().toLowerCase() === 'latest' || latest?.trim().toLowerCase() === 'latest') return true;
  const parse = (v: string) =>
    v
      .trim()
      .replace(/^v/i, '')
      .split(/[.-]/)
      .map((p) => (DIGITS.test(p) ? Number(p) : 0));
  const a = parse(current ?? '');
  const b = parse(latest ?? '');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

/**
 * An instant in a given pattern and zone: '23 Nov 2026, 16:02'. '—' for none; an unknown zone falls back to UTC
 * (and says so) rather than failing the screen. Views use formatDateTime, the one format per locale.
 */
export function formatInZone(iso: string | number | Date | null | undefined, timeZone: string, pattern = 'd MMM yyyy, HH:mm'): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return String(iso);
  try {
    return formatZoned(at, timeZone, pattern);
  } catch {
    return formatZoned(at, 'UTC', pattern) + ' UTC';
  }
}

// ---------- one rule for time on every screen (issue 10) ----------

export const DISPLAY_LOCALES = ['en', 'zh-CN'] as const;
export type DisplayLocale = (typeof DISPLAY_LOCALES)[number];

/** The one date-time format of each locale (seconds matter for events and alarms), and its date part. */
export const DATE_TIME_PATTERN: Record<DisplayLocale, string> = { en: 'd MMM yyyy, HH:mm:ss', 'zh-CN': 'yyyy年M月d日 HH:mm:ss' };
export const DATE_PATTERN: Record<DisplayLocale, string> = { en: 'd MMM yyyy', 'zh-CN': 'yyyy年M月d日' };
/** What a date field's placeholder says in each locale: the shape of the one date format (issue 29: a date field
 *  shows and takes dates as every screen shows them, never the browser's own 11/28/2026). */
export const DATE_PLACEHOLDER: Record<DisplayLocale, string> = { en: 'e.g. 28 Nov 2026', 'zh-CN': '例如 2026年11月28日' };

/** The one date-time format of a date-time field in each locale ('28 Nov 2026 14:05'): the date field's, then the
 *  minute (a field never asks for seconds). */
export const DATE_TIME_INPUT_PATTERN: Record<DisplayLocale, string> = { en: 'd MMM yyyy HH:mm', 'zh-CN': 'yyyy年M月d日 HH:mm' };
export const DATE_TIME_PLACEHOLDER: Record<DisplayLocale, string> = { en: 'e.g. 28 Nov 2026 14:05', 'zh-CN': '例如 2026年11月28日 14:05' };
/** The runtime's answer per zone name, asked once: building a formatter to ask costs more than the answer (the session's
 *  zone is resolved on every change of the session). */
const zoneKnown = new Map<string, boolean>();
/** True when the runtime knows `zone` as an IANA time zone. */
export function isTimeZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  let known = zoneKnown.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    if (zoneKnown.size >= 256) zoneKnown.clear();
    zoneKnown.set(zone, known);
  }
  return known;
}

/**
 * The zone every screen shows time in: the user's profile time zone, else the client's (tenant's), else the
 * browser's, else UTC. An unknown name counts as none.
 */
export function resolveTimeZone(profile: string | null | undefined, client?: string | null, browser?: string | null): string {
  for (const z of [profile, client, browser]) if (isTimeZone(z)) return z;
  return 'UTC';
}

/**
 * The minutes already written, by zone, locale and minute: both date-time patterns end in seconds (':ss'), and a zone's
 * offset is whole minutes (checked: the minute's own text must end in ':00'), so every instant of a minute shares its
 * text up to the seconds. The live events screen writes hundreds of times a second within the same minute; each
 * write in date-fns-tz asks Intl for the zone's parts, which was a tenth of the screen's time.
 */
const minuteText = new Map<string, string | null>();
const MINUTES_KEPT = 256;

function formatSecondsInZone(iso: string | number | Date | null | undefined, timeZone: string, locale: DisplayLocale): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const ms = typeof iso === 'number' ? iso : new Date(iso).getTime();
  if (!Number.isFinite(ms)) return formatInZone(iso, timeZone, DATE_TIME_PATTERN[locale]);
  const minute = Math.floor(ms / 60_000) * 60_000;
  const key = `${timeZone}\u0000${locale}\u0000${minute}`;
  let head = minuteText.get(key);
  if (head === undefined) {
    const text = formatInZone(minute, timeZone, DATE_TIME_PATTERN[locale]);
    head = text.endsWith(':00') ? text.slice(0, -2) : null; // null: not a whole-minute offset (or a fallback): no shortcut
    if (minuteText.size >= MINUTES_KEPT) minuteText.clear();
    minuteText.set(key, head);
  }
  if (head === null) return formatInZone(iso, timeZone, DATE_TIME_PATTERN[locale]);
  const second = Math.floor((ms - minute) / 1000);
  return head + (second < 10 ? `0${second}` : String(second));
}

/** An instant in `timeZone` in the locale's one date-time format; with `withZone`, followed by the zone ('GMT+5:30'). */
export function formatDateTime(iso: string | number | Date | null | undefined, timeZone: string, locale: DisplayLocale, withZone = false): string {
  const text = formatSecondsInZone(iso, timeZone, locale);
  return withZone && text !== '—' && !text.endsWith(' UTC') ? `${text} ${zoneLabel(timeZone, iso ?? undefined)}` : text;
}

/**
 * A calendar date ('2026-11-23', no instant, no zone: an identity's valid-to day, a visit's day) in the locale's
 * date format. Anything that is not such a date is returned as it came; '—' for none.
 */
export function formatDate(ymd: string | null | undefined, locale: DisplayLocale): string {
  if (!ymd) return '—';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd.slice(0, 10));
  if (!m) return ymd;
  return formatZoned(new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], 12)), 'UTC', DATE_PATTERN[locale]);
}

/** The zone's short name at an instant (default now): 'GMT+5:30', 'PST', 'UTC'; for time column headers. */
export function zoneLabel(timeZone: string, at: string | Date | number = Date.now()): string {
  const when = new Date(at);
  if (Number.isNaN(when.getTime())) return timeZone;
  // a zone's name holds for a quarter hour when it is the same at both ends of it (date-fns-tz makes a new Intl
  // formatter for every name it writes; a live screen's column header asks on every render)
  const quarter = Math.floor(when.getTime() / 900_000);
  const key = `${timeZone}\u0000${quarter}`;
  const known = zoneNames.get(key);
  if (known !== undefined) return known;
  const name = zoneLabelAt(timeZone, when);
  if (zoneLabelAt(timeZone, new Date(quarter * 900_000)) === name && zoneLabelAt(timeZone, new Date(quarter * 900_000 + 899_999)) === name) {
    if (zoneNames.size >= 256) zoneNames.clear();
    zoneNames.set(key, name);
  }
  return name;
}
const zoneNames = new Map<string, string>();

function zoneLabelAt(timeZone: string, when: Date): string {
  try {
    const z = formatZoned(when, timeZone, 'zzz');
    return z === 'GMT' && timeZone === 'UTC' ? 'UTC' : z;
  } catch {
    return 'UTC';
  }
}

/** Today's calendar date in `timeZone` ('2026-11-23'): what a date picker starts on. */
export function todayInZone(timeZone: string, now: number): string {
  return formatInZone(new Date(now), isTimeZone(timeZone) ? timeZone : 'UTC', 'yyyy-MM-dd');
}
