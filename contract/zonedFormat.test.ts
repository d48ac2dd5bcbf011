// Issue 48: formatZoned writes what date-fns-tz's formatInTimeZone writes, for every pattern the code writes with it.
import { describe, expect, it } from 'vitest';
import { formatInTimeZone } from 'date-fns-tz';
import { DATE_PATTERN, DATE_TIME_INPUT_PATTERN, DATE_TIME_PATTERN } from './format';
import { formatZoned } from './zonedFormat';

const PATTERNS = [
  ...Object.values(DATE_TIME_PATTERN),
  ...Object.values(DATE_PATTERN),
  ...Object.values(DATE_TIME_INPUT_PATTERN),
  'd MMM yyyy, HH:mm', // formatInZone's default
  'yyyy-MM-dd', // todayInZone
  "yyyy-MM-dd'T'HH:mm", // readDateTimeInput's check, the floor plan's time field
  'HH:mm', // the dashboard's hour labels
  'zzz', // zoneLabel
  "MMMM yy, H:m:s 'o''clock' dd.MM", // the other widths and a quote
];
const ZONES = [
  'UTC',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Shanghai',
  'America/New_York',
  'America/St_Johns',
  'America/Sao_Paulo',
  'Europe/London',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
];
/** Instants from 1971 to 2099 (a fixed sequence), and each side of summer time's changes in New York and London. */
function instants(): number[] {
  const out = [Date.UTC(2026, 2, 8, 7), Date.UTC(2026, 10, 1, 6), Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1), 0, Date.UTC(2099, 11, 31, 23, 59, 59)];
  for (const t of out.slice(0, 4)) out.push(t - 1, t - 1000, t + 1000);
  let seed = 48;
  for (let i = 0; i < 300; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out.push(Date.UTC(1971, 0, 1) + Math.floor((seed / 2 ** 31) * (Date.UTC(2099, 0, 1) - Date.UTC(1971, 0, 1))));
  }
  return out;
}

/** The zone's wall clock at `t` is one the runtime's own zone skips (its summer time's gap): date-fns-tz writes it
 *  through a local Date, which moves it by the gap (02:37 written 03:37), so it is no reference there. */
function inLocalGap(t: number, zone: string): boolean {
  const [y, mo, d, h, mi] = formatZoned(t, zone, 'yyyy M d H m').split(' ').map(Number);
  const local = new Date(y, mo - 1, d, h, mi);
  return local.getDate() !== d || local.getHours() !== h || local.getMinutes() !== mi;
}

describe('formatZoned', () => {
  it("writes what date-fns-tz's formatInTimeZone writes, over instants, zones and the code's patterns", () => {
    const differ: string[] = [];
    for (const zone of ZONES)
      for (const t of instants())
        for (const pattern of PATTERNS) {
          if (inLocalGap(t, zone)) continue;
          // as Dates, as the code passes them (given the number 0, date-fns-tz names the zone at the wrong instant)
          const ours = formatZoned(new Date(t), zone, pattern);
          const theirs = formatInTimeZone(new Date(t), zone, pattern);
          if (ours !== theirs) differ.push(`${new Date(t).toISOString()} ${zone} ${pattern}: ${ours} ≠ ${theirs}`);
        }
    expect(differ.slice(0, 10)).toEqual([]);
  });

  it('refuses a token it does not write, an unknown zone and an invalid date', () => {
    expect(() => formatZoned(0, 'UTC', 'EEE d MMM')).toThrow(/token EEE/);
    expect(() => formatZoned(0, 'Mars/Olympus', 'HH:mm')).toThrow(RangeError);
    expect(() => formatZoned(Number.NaN, 'UTC', 'HH:mm')).toThrow(RangeError);
  });
});
