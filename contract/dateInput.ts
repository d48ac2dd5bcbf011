// What a date or date-time field takes as typed, and the §5 date helper (issue 29): read with date-fns's parse and
// date-fns-tz's fromZonedTime. Apart from contract/format.ts (issue 48), and not in contract/index.ts: only the fields
// (src/ui/DateField.tsx, src/ui/DateTimeField.tsx) and the floor plan's time bar use it, so those libraries come with
// them, not with every screen's start. Pure: time comes in as arguments.
import { fromZonedTime } from 'date-fns-tz';
import { parse as parseWith } from 'date-fns';
import { DATE_TIME_INPUT_PATTERN, isTimeZone, type DisplayLocale } from './format';
import { formatZoned } from './zonedFormat';

const DIGITS = /^\d+$/;
/**
 * §5 date helper: 'YYYY-MM-DD' and 'HH:mm' or 'HH:mm:ss' (one string split by a space or T, or two arguments),
 * read in `timeZone` (default: the runtime's local zone) → ISO UTC without milliseconds, e.g. '2024-03-01T02:30:00Z'.
 * The date must split by dashes into three numbers and the time into 2 or 3 numbers; anything else → null.
 */
export function toUtcIso(date: string, time?: string, timeZone?: string): string | null {
  let d = date?.trim?.() ?? '';
  let t = time?.trim();
  if (t === undefined) {
    const parts = d.split(/[ T]/);
    if (parts.length !== 2) return null;
    [d, t] = parts;
  }
  const dp = d.split('-');
  const tp = t.split(':');
  if (dp.length !== 3 || !dp.every((p) => DIGITS.test(p))) return null;
  if ((tp.length !== 2 && tp.length !== 3) || !tp.every((p) => DIGITS.test(p))) return null;
  const [y, mo, da] = dp.map(Number);
  const [h, mi, s = 0] = tp.map(Number);
  if (mo < 1 || mo > 12 || da < 1 || da > 31 || h > 23 || mi > 59 || s > 59) return null;
  let at: Date;
  if (timeZone) {
    const local = `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(da).padStart(2, '0')}T${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
    at = fromZonedTime(local, timeZone);
  } else {
    at = new Date(y, mo - 1, da, h, mi, s);
    if (at.getDate() !== da) return null; // 31 February and friends
  }
  if (Number.isNaN(at.getTime())) return null;
  if (timeZone && new Date(Date.UTC(y, mo - 1, da)).getUTCDate() !== da) return null;
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** What a date field takes besides its locale's own format: ISO 8601 (what a paste from a file has), a month's full
 *  name, and the month's name first ('Nov 28 2026'). A day first with slashes is read as day/month/year. */
const DATE_INPUTS: Record<DisplayLocale, readonly string[]> = {
  en: ['d MMM yyyy', 'd MMMM yyyy', 'd MMM, yyyy', 'MMM d yyyy', 'MMM d, yyyy', 'MMMM d yyyy', 'MMMM d, yyyy', 'd/M/yyyy', 'd.M.yyyy', 'd-M-yyyy'],
  'zh-CN': ['yyyy年M月d日', 'yyyy/M/d', 'yyyy.M.d'],
};
/**
 * A date as typed in a date field → 'YYYY-MM-DD', or null when it is no date (31 Feb, words, a two-digit year).
 * Takes the locale's one date format ('28 Nov 2026', '2026年11月28日'; any case), ISO 8601 and a few common shapes.
 */
export function parseDateInput(text: string | null | undefined, locale: DisplayLocale): string | null {
  const t = (text ?? '').trim().replace(/\s+/g, ' ');
  if (!t) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const ymd = (y: number, m: number, d: number) => {
    const at = new Date(Date.UTC(y, m - 1, d));
    return y >= 1000 && y <= 9999 && at.getUTCMonth() === m - 1 && at.getUTCDate() === d ? at.toISOString().slice(0, 10) : null;
  };
  if (iso) return ymd(+iso[1], +iso[2], +iso[3]);
  const cased = t.replace(/[A-Za-z]+/g, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase());
  const ref = new Date(Date.UTC(2000, 0, 1, 12));
  for (const pattern of [...DATE_INPUTS[locale], ...(locale === 'en' ? [] : DATE_INPUTS.en)]) {
    const at = parseWith(cased, pattern, ref);
    if (!Number.isNaN(at.getTime()) && /\d{4}/.test(t)) {
      const day = ymd(at.getFullYear(), at.getMonth() + 1, at.getDate());
      if (day) return day;
    }
  }
  return null;
}

/** The time of day a date-time field takes after its date: 14:05, 14.05, 14:05:30, 2:05 pm, 2pm. */
const TIME_INPUTS = ['H:mm', 'H:mm:ss', 'H.mm', 'h:mm a', 'h:mm:ss a', 'h a', 'h.mm a'];
const TIME_TAIL = /^(.*?)[\sT,]+(\d{1,2}(?:[:.]\d{2}){0,2}\s*(?:[ap]\.?m\.?)?)$/i;

/** Why a typed date and time is no moment of `timeZone`, or the moment (ISO 8601, UTC, whole minutes). */
export type DateTimeReading = { iso: string } | { problem: 'not a date and time' | 'not a time in the zone' };

/**
 * A date and time as typed in a date-time field, read as a wall clock of `timeZone` (the user's zone): the date in
 * any shape the date field takes (parseDateInput), then a time of day ('28 Nov 2026 14:05', '28/11/2026 2:05 pm',
 * '2026-11-28T14:05'). A time the zone's clocks skip (02:30 on the night summer time starts) is no moment and says
 * so; a time they pass twice is its first pass (the earlier instant). Seconds are dropped: a field is to the minute.
 */
export function readDateTimeInput(text: string | null | undefined, locale: DisplayLocale, timeZone: string): DateTimeReading {
  const no = { problem: 'not a date and time' } as const;
  const t = (text ?? '').trim().replace(/\s+/g, ' ');
  const m = TIME_TAIL.exec(t);
  if (!m) return no;
  const day = parseDateInput(m[1].replace(/,$/, ''), locale);
  if (!day) return no;
  const clock = m[2]
    .replace(/\s+/g, ' ')
    .replace(/([ap])\.?m\.?$/i, (_, x: string) => `${x.toUpperCase()}M`)
    .replace(/(\d)([AP]M)$/, '$1 $2');
  const ref = new Date(2000, 0, 1);
  const at = TIME_INPUTS.map((p) => parseWith(clock, p, ref)).find((d) => !Number.isNaN(d.getTime()));
  if (!at) return no;
  const wall = `${day}T${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  const moment = fromZonedTime(`${wall}:00`, zone);
  if (Number.isNaN(moment.getTime())) return no;
  // the first pass of a wall clock the zone passes twice; none when it skips it (summer time's gap)
  const first = [moment.getTime() - 3_600_000, moment.getTime()].find((ms) => formatZoned(ms, zone, "yyyy-MM-dd'T'HH:mm") === wall);
  if (first === undefined) return { problem: 'not a time in the zone' };
  return { iso: new Date(first).toISOString().replace(/\.\d{3}Z$/, 'Z') };
}

/** readDateTimeInput's moment, or null when what is typed is none. */
export function parseDateTimeInput(text: string | null | undefined, locale: DisplayLocale, timeZone: string): string | null {
  const r = readDateTimeInput(text, locale, timeZone);
  return 'iso' in r ? r.iso : null;
}

/** A moment as a date-time field writes it in `timeZone`: '28 Nov 2026 14:05'; '' for none or no moment. */
export function formatDateTimeInput(iso: string | null | undefined, locale: DisplayLocale, timeZone: string): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  return formatZoned(new Date(iso), isTimeZone(timeZone) ? timeZone : 'UTC', DATE_TIME_INPUT_PATTERN[locale]);
}
