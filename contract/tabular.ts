// What every exported table shares, on the server (server/http/tabular.ts, the one writer of files) and in the
// console (src/resources/csv.ts, a list's rows written where they are shown): unique headers, instants as ISO 8601
// with the zone's offset, and csv-stringify's options (a byte-order mark first, CR LF, formulas neutralised).
import { formatInTimeZone } from 'date-fns-tz';

/** The UTF-8 byte-order mark every CSV starts with (Excel reads the file as UTF-8 only with it). */
export const BOM = '\uFEFF';

/** csv-stringify's options for every CSV (the server's stream and pages, the console's files). */
export const CSV_OPTIONS = {
  record_delimiter: '\r\n',
  // a cell holding a line break is quoted (with record_delimiter set, csv-stringify would not by default)
  quote_record_delimiter: true,
  escape_formulas: true,
  cast: {
    boolean: (v: boolean) => String(v),
    date: (v: Date) => v.toISOString(),
    object: (v: object) => JSON.stringify(v),
  },
};

/** Headers made unique: a repeated one gets " (2)", " (3)"… (sources name colliding columns themselves first). */
export function uniqueHeaders(titles: string[]): string[] {
  const seen = new Set<string>();
  return titles.map((t) => {
    let name = t,
      n = 1;
    while (seen.has(name.toLowerCase())) name = `${t} (${++n})`;
    seen.add(name.toLowerCase());
    return name;
  });
}

/** A time column's header: its title and the zone's name, "When (Asia/Kuala_Lumpur)". */
export const zonedHeader = (title: string, zone: string) => `${title} (${zone})`;

/** An instant (a Date or an ISO string) as ISO 8601 with the zone's offset at that instant: 2026-11-27T09:15:00+08:00. */
export function zonedTime(v: unknown, zone: string): string | null {
  if (v === null || v === undefined || v === '') return null;
  const d = v instanceof Date ? v : new Date(String(v));
  if (Number.isNaN(d.getTime())) return String(v);
  return formatInTimeZone(d, zone, d.getUTCMilliseconds() ? "yyyy-MM-dd'T'HH:mm:ss.SSSXXX" : "yyyy-MM-dd'T'HH:mm:ssXXX");
}
