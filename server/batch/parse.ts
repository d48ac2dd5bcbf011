// Reading an uploaded spreadsheet into header + text rows, with the well-kept libraries (csv-parse for CSV,
// exceljs for XLSX), never a hand-written parser. Anything unreadable is a 4xx with a violation on `file`:
// not UTF-8 (or UTF-16), a malformed CSV, a broken XLSX, a formula cell, too many rows, no header row.
import { parse } from 'csv-parse/sync';
import type ExcelJS from 'exceljs';
import { HttpError } from '../http/common';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_UPLOAD_ROWS = 20_000;
const MAX_CELL = 2000;

export interface Sheet { headers: string[]; rows: string[][] }

const bad = (message: string, status = 400) => new HttpError(status, 'Validation failed', [{ field: 'file', message }]);

const isZip = (b: Buffer) => b.length > 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

export async function readSheet(buf: Buffer): Promise<Sheet> {
  if (!buf.length) throw bad('is empty');
  if (buf.length > MAX_UPLOAD_BYTES) throw bad(`is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`, 413);
  const table = isZip(buf) ? await readXlsx(buf) : readCsv(buf);
  const nonEmpty = table.filter((r) => r.some((c) => c.trim() !== ''));
  if (!nonEmpty.length) throw bad('has no header row');
  const [head, ...rows] = nonEmpty;
  if (rows.length > MAX_UPLOAD_ROWS) throw bad(`has ${rows.length} rows; at most ${MAX_UPLOAD_ROWS} per upload`, 413);
  const headers = head.map((h) => h.trim());
  return { headers, rows };
}

function readCsv(buf: Buffer): string[][] {
  if ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff)) throw bad('is UTF-16 text; save it as CSV UTF-8', 415);
  let text: string;
  try { text = new TextDecoder('utf-8', { fatal: true }).decode(buf); } catch { throw bad('is not UTF-8 text (save it as CSV UTF-8, or upload the .xlsx)', 415); }
  if (text.includes('\u0000')) throw bad('is not a text file (it holds NUL bytes)', 415);
  // the delimiter the header line uses: comma, semicolon (European spreadsheets) or tab
  const first = text.slice(0, text.search(/\r?\n/) >>> 0 || text.length);
  const delimiter = [',', ';', '\t'].map((d) => [d, first.split(d).length] as const).sort((a, b) => b[1] - a[1])[0][0];
  try {
    const out = parse(text, { bom: true, delimiter, skip_empty_lines: true, relax_column_count: true, max_record_size: 64 * 1024, to: MAX_UPLOAD_ROWS + 2 }) as string[][];
    for (const r of out) for (const c of r) if (c.length > MAX_CELL) throw bad(`has a cell longer than ${MAX_CELL} characters`);
    return out;
  } catch (e) {
    if (e instanceof HttpError) throw e;
    const err = e as { message?: string; lines?: number };
    throw bad(`is not a readable CSV${err.lines ? ` (line ${err.lines})` : ''}: ${String(err.message ?? e).slice(0, 200)}`);
  }
}

async function readXlsx(buf: Buffer): Promise<string[][]> {
  // loaded on the first workbook: a large library every server process (and every server test) would otherwise load
  // at start for a feature most never use (0.7 s on this machine)
  const { default: Excel } = await import('exceljs');
  const wb = new Excel.Workbook();
  try { await wb.xlsx.load(buf as unknown as ArrayBuffer); } catch (e) { throw bad(`is not a readable XLSX workbook: ${String((e as Error).message ?? e).slice(0, 200)}`); }
  const ws = wb.worksheets[0];
  if (!ws) throw bad('has no worksheet');
  if (ws.rowCount > MAX_UPLOAD_ROWS + 1) throw bad(`has ${ws.rowCount - 1} rows; at most ${MAX_UPLOAD_ROWS} per upload`, 413);
  const out: string[][] = [];
  const width = ws.columnCount;
  ws.eachRow({ includeEmpty: false }, (row, n) => {
    const cells: string[] = [];
    for (let c = 1; c <= width; c++) {
      const v = row.getCell(c).value;
      cells.push(cellText(v, n, c));
    }
    out.push(cells);
  });
  return out;
}

function cellText(v: ExcelJS.CellValue, row: number, col: number): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('formula' in v || 'sharedFormula' in v) throw bad(`has a formula in row ${row}, column ${col}; upload values only`);
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('text' in v) return String(v.text);
    if ('error' in v) throw bad(`has an error value in row ${row}, column ${col}`);
    return '';
  }
  const s = String(v);
  if (s.length > MAX_CELL) throw bad(`has a cell longer than ${MAX_CELL} characters`);
  return s;
}
