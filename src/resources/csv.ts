// A list's rows written as CSV where they are shown (a list the server does not export): by csv-stringify with the
// server's options (contract/tabular.ts): a byte-order mark first (Excel reads "Zoë" as written), unique headers,
// RFC 4180 quoting with CR LF, a leading =,+,-,@ neutralised against spreadsheet formulas.
import { stringify } from 'csv-stringify/browser/esm/sync';
import { BOM, CSV_OPTIONS, uniqueHeaders } from '../../contract/tabular';

export function toCsv(headers: string[], rows: string[][]): string {
  return BOM + stringify([uniqueHeaders(headers), ...rows], CSV_OPTIONS);
}
