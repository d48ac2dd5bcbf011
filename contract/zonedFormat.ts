// An instant written in a time zone with a date-fns pattern, on the runtime's Intl alone (issue 48): what date-fns-tz's
// formatInTimeZone writes for the tokens our patterns use, without date-fns's formatters and locale (18 KB compressed of
// the cold console's start). contract/zonedFormat.test.ts holds it equal to date-fns-tz over instants, zones and every
// pattern the code writes; a token outside the list below throws, as date-fns does for one it does not know.
//   yyyy yy (year), M MM MMM MMMM (month; names in English, as date-fns's default locale), d dd (day), H HH (hour 0–23),
//   m mm (minute), s ss (second), z zz zzz (the zone's short name, in the runtime's locale, as date-fns-tz asks Intl);
//   'quoted' text and '' for a quote; anything else but a letter is written as it is.
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const TOKENS = /(\w)\1*|''|'(?:''|[^'])+(?:'|$)|./g;

/** One formatter per zone (making one costs more than writing with it); an unknown zone throws Intl's RangeError. */
const fields = new Map<string, Intl.DateTimeFormat>();
const names = new Map<string, Intl.DateTimeFormat>();
function formatterOf(cache: Map<string, Intl.DateTimeFormat>, timeZone: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = cache.get(timeZone);
  if (!f) {
    f = make();
    if (cache.size >= 64) cache.clear();
    cache.set(timeZone, f);
  }
  return f;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** `at` in `timeZone` as `pattern` says ('d MMM yyyy, HH:mm:ss' → '28 Nov 2026, 14:05:09'). */
export function formatZoned(at: Date | number, timeZone: string, pattern: string): string {
  const when = typeof at === 'number' ? new Date(at) : at;
  if (Number.isNaN(when.getTime())) throw new RangeError('Invalid time value');
  const dtf = formatterOf(
    fields,
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      }),
  );
  const part: Record<string, number> = {};
  for (const p of dtf.formatToParts(when)) if (p.type !== 'literal') part[p.type] = Number(p.value);
  const year = part.year;
  return pattern.replace(TOKENS, (token) => {
    const width = token.length;
    switch (token[0]) {
      case 'y':
        return width === 2 ? pad(year % 100, 2) : pad(year, width);
      case 'M':
        return width === 3 ? MONTHS[part.month - 1].slice(0, 3) : width === 4 ? MONTHS[part.month - 1] : pad(part.month, width);
      case 'd':
        return pad(part.day, width);
      case 'H':
        return pad(part.hour % 24, width);
      case 'm':
        return pad(part.minute, width);
      case 's':
        return pad(part.second, width);
      case 'z': {
        if (width > 3) break;
        const short = formatterOf(names, timeZone, () => new Intl.DateTimeFormat(undefined, { timeZone, timeZoneName: 'short' }));
        return short.formatToParts(when).findLast((p) => p.type === 'timeZoneName')?.value ?? '';
      }
      case "'":
        return token === "''" ? "'" : token.slice(1, token.endsWith("'") && width > 1 ? -1 : undefined).replace(/''/g, "'");
      default:
        if (!/[a-zA-Z]/.test(token[0])) return token;
    }
    throw new RangeError(`formatZoned: the token ${token} is not one it writes`);
  });
}
