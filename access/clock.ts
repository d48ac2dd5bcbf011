// Wall-clock facts of an instant in a tenant's time zone (issue 12): schedules, special dates and validity dates are
// all read in the tenant's zone, and an instant maps to exactly one local date and minute, across daylight-saving
// changes too (Intl does the zone arithmetic; the formatter per zone is built once).

export interface LocalTime {
  /** 'YYYY-MM-DD' in the zone */
  date: string;
  /** 'MM-DD', for special dates that recur every year */
  monthDay: string;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
  /** minutes since local midnight, 0 … 1439 */
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The local date, weekday and minute of `at` (ms since the epoch) in `zone` (an IANA name). */
export function localTime(at: number, zone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(at)) parts[p.type] = p.value;
  const monthDay = `${parts.month}-${parts.day}`;
  return {
    date: `${parts.year}-${monthDay}`,
    monthDay,
    weekday: WEEKDAYS[parts.weekday],
    minute: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/** 'HH:mm' (00:00 … 24:00) as minutes since midnight, or NaN. */
export function minuteOf(hhmm: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!m) return NaN;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 24 || min > 59 || (h === 24 && min !== 0)) return NaN;
  return h * 60 + min;
}
