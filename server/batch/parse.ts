// Reading an uploaded spreadsheet into header + text rows, with the well-kept libraries (csv-parse for CSV,
// exceljs for XLSX), never a hand-written parser. Anything unreadable is a 4xx with a violation: on `file` when the
// file as a whole is wrong (not UTF-8 or UTF-16, a broken XLSX, too many rows, no header row), on the cell or row in
// plain words when one is (`rows[12].Name` "Row 12, column C (Name): longer than 2,000 characters", a formula, a
// quote not closed: "Row 4: a quote is not closed").
import { parse } from 'csv-parse/sync';
import type { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { Entry, ZipFile } from 'yauzl';
import { sentenceValue, type Sentence } from '../../contract';
import { HttpError, INVALID_REQUEST, fill } from '../http/kit';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_UPLOAD_ROWS = 20_000;
export const MAX_UPLOAD_COLUMNS = 64;
export const MAX_UPLOAD_CELLS = 400_000;
const MAX_CELL = 2000;
/** A text node of an XLSX part longer than this is refused while the part is read (no cell is anywhere near it). */
const MAX_XML_TEXT = 64 * 1024;

export interface Sheet {
  headers: string[];
  rows: string[][];
}

// issue 48: every problem is a sentence with its key (the English beside it), a cell's or a row's inside the sentence
// that names where it is
const bad = (said: Sentence, status = 400) => new HttpError(status, INVALID_REQUEST, [{ field: 'file', ...said }]);
/** The XLSX reader's or the zip's own words (English) about a workbook it cannot read: a value. */
const unreadable = (why: string) => bad(fill('batch.xlsxUnreadable', 'is not a readable XLSX workbook: {why}', { why }));

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
const count = (n: number) => n.toLocaleString('en-US');
const tooTall = () => bad(fill('batch.tooTall', 'has more than {max} rows; at most {max} per upload', { max: count(MAX_UPLOAD_ROWS) }), 413);
const tooWide = () => bad(fill('batch.tooWide', 'is wider than {max} columns', { max: MAX_UPLOAD_COLUMNS }), 413);

/** "A" for the first column, "AA" for the 27th: as a spreadsheet names its columns. */
export const columnLetter = (index: number): string => {
  let n = index + 1,
    out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
};
/**
 * A problem of one cell, said in plain words with its row (the spreadsheet's row number, the header being row 1) and
 * column (letter and header): field `rows[12].Name`, message "Row 12, column C (Name): longer than 2,000 characters".
 * The whole file is refused (it is read before any row is checked), so the sentence is also the answer's message.
 */
export function cellProblem(row: number, index: number, header: string | undefined, what: Sentence): HttpError {
  const name = header?.trim() ?? '';
  const where = { row: count(row), column: columnLetter(index), ...sentenceValue('what', what) };
  const said =
    name && row > 1
      ? fill('batch.cellNamed', 'Row {row}, column {column} ({name}): {what}', { ...where, name })
      : fill('batch.cell', 'Row {row}, column {column}: {what}', where);
  return new HttpError(400, said, [{ field: `rows[${row}].${name && row > 1 ? name : columnLetter(index)}`, ...said }]);
}
/** A problem of one row (a quote not closed): field `rows[4]`, message "Row 4: a quote is not closed". */
export function rowProblem(row: number, what: Sentence): HttpError {
  const said = fill('batch.row', 'Row {row}: {what}', { row: count(row), ...sentenceValue('what', what) });
  return new HttpError(400, said, [{ field: `rows[${row}]`, ...said }]);
}
const tooLong = fill('batch.cellTooLong', 'longer than {max} characters', { max: count(MAX_CELL) });

/** csv-parse's errors in plain words, with the row and column they are in (the parser's own words are not shown). */
function csvProblem(e: { code?: string; records?: number; index?: number }, headers: string[]): HttpError {
  const row = (e.records ?? 0) + 1;
  const col = e.index ?? 0;
  switch (e.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return rowProblem(
        row,
        fill('batch.quoteNotClosed', 'a quote is not closed (a cell that starts with " ends with ", and a quote inside it is written "")', {}),
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return cellProblem(
        row,
        col,
        headers[col],
        fill('batch.textAfterQuote', 'text follows the closing quote (a quote inside a quoted cell is written "")', {}),
      );
    case 'INVALID_OPENING_QUOTE':
      return cellProblem(
        row,
        col,
        headers[col],
        fill(
          'batch.quoteInMiddle',
          'a quote in the middle of a cell that does not start with one (put the whole cell in quotes, and write a quote inside it as "")',
          {},
        ),
      );
    case 'CSV_MAX_RECORD_SIZE':
      return rowProblem(row, fill('batch.rowTooLong', 'longer than 64 KB', {}));
    default:
      return rowProblem(row, fill('batch.notCsv', 'is not readable as CSV', {}));
  }
}

const isZip = (b: Buffer) => b.length > 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

export async function readSheet(buf: Buffer): Promise<Sheet> {
  if (!buf.length) throw bad(fill('batch.fileEmpty', 'is empty', {}));
  if (buf.length > MAX_UPLOAD_BYTES) throw bad(fill('batch.fileTooLarge', 'is larger than {size}', { size: mb(MAX_UPLOAD_BYTES) }), 413);
  const table = isZip(buf) ? await readXlsx(buf) : readCsv(buf);
  const nonEmpty = table.filter((r) => r.some((c) => c.trim() !== ''));
  if (!nonEmpty.length) throw bad(fill('batch.noHeaderRow', 'has no header row', {}));
  const [head, ...rows] = nonEmpty;
  if (rows.length > MAX_UPLOAD_ROWS) throw tooTall();
  const headers = head.map((h) => h.trim());
  return { headers, rows };
}

function readCsv(buf: Buffer): string[][] {
  if ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))
    throw bad(fill('batch.utf16', 'is UTF-16 text; save it as CSV UTF-8', {}), 415);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw bad(fill('batch.notUtf8', 'is not UTF-8 text (save it as CSV UTF-8, or upload the .xlsx)', {}), 415);
  }
  if (text.includes('\u0000')) throw bad(fill('batch.notTextFile', 'is not a text file (it holds NUL bytes)', {}), 415);
  // the delimiter the header line uses: comma, semicolon (European spreadsheets) or tab
  // (of at most its first 64 KB: a header line is never longer, and a hostile one is not split whole)
  const head = text.slice(0, 64 * 1024);
  const first = head.slice(0, head.search(/\r?\n/) >>> 0 || head.length);
  const delimiter = [',', ';', '\t'].map((d) => [d, first.split(d).length] as const).sort((a, b) => b[1] - a[1])[0][0];
  const headers: string[] = [];
  try {
    // columns and cells are counted as csv-parse reads each field (cast sees every one), so a line of a million
    // empty fields stops at the 65th, before its record is made
    let fields = 0;
    const cast = (value: string, ctx: { index: number; records: number }) => {
      if (ctx.index >= MAX_UPLOAD_COLUMNS) throw tooWide();
      if (++fields > MAX_UPLOAD_CELLS) throw bad(fill('batch.tooManyCells', 'has more than {max} cells', { max: count(MAX_UPLOAD_CELLS) }), 413);
      if (value.length > MAX_CELL) throw cellProblem(ctx.records + 1, ctx.index, headers[ctx.index], tooLong);
      if (ctx.records === 0) headers[ctx.index] = value; // the header row, to name a bad cell's column
      return value;
    };
    const out = parse(text, {
      bom: true,
      delimiter,
      skip_empty_lines: true,
      relax_column_count: true,
      max_record_size: 64 * 1024,
      to: MAX_UPLOAD_ROWS + 2,
      cast,
    }) as string[][];
    return out;
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw csvProblem(e as { code?: string; records?: number; index?: number }, headers);
  }
}

// --- XLSX: an XLSX is a zip of XML parts. Everything about it is bounded before or while it is read, never after:
// the zip's central directory first (how many parts, how large each says it unpacks, how much larger than it is
// packed), then each part the reader needs is inflated as a stream (yauzl: never past the size its directory states)
// through a streaming XML parser (saxes) that counts rows, columns, cells, shared strings and nesting as they come
// and stops at the first limit passed. Only then are the checked parts handed to exceljs's streaming reader, in a
// zip built of them alone (yazl), so that exceljs reads exactly the bytes that were checked.

/** Reading stops at the first of these; the file is refused with a violation naming the limit. */
export const XLSX_LIMITS = {
  /** uncompressed bytes of all the parts read */
  unpackedBytes: 50 * 1024 * 1024,
  /** how much larger than its packed size a part may unpack (parts of at least `ratioFloor` bytes) */
  ratio: 100,
  ratioFloor: 1024 * 1024,
  /** parts in the zip */
  parts: 1000,
  columns: MAX_UPLOAD_COLUMNS,
  cells: MAX_UPLOAD_CELLS,
  sharedStrings: MAX_UPLOAD_CELLS,
  sharedStringChars: 8 * 1024 * 1024,
  xmlDepth: 32,
} as const;

/** "XFD20001" → [16384, 20001]; "B" → [2, 0]; anything else: null. */
function cellRef(ref: string): [number, number] | null {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d{0,7})$/.exec(ref.trim());
  if (!m) return null;
  let col = 0;
  for (const ch of m[1].toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return [col, m[2] ? Number(m[2]) : 0];
}

type PartKind = 'workbook' | 'rels' | 'sheet' | 'sharedStrings' | 'styles';

interface PartFacts {
  firstSheetRid?: string;
  rels?: Map<string, string>;
}

/**
 * Inflates one part as a stream through saxes, checking every limit as the XML comes; returns the part's bytes
 * (bounded by the total) and what the workbook and its relationships say. `budget` is what is left of the total.
 */
async function checkPart(
  zip: ZipFile,
  entry: Entry,
  kind: PartKind,
  budget: { left: number },
  SaxesParser: typeof import('saxes').SaxesParser,
): Promise<{ bytes: Buffer; facts: PartFacts }> {
  const stream = await zip.openReadStreamPromise(entry);
  const parser = new SaxesParser();
  const facts: PartFacts = {};
  let depth = 0;
  let rows = 0;
  let cells = 0;
  let column = 0; // the last cell's column in the current row
  let rowNumber = 0; // the current row's number (its r, or the count)
  let strings = 0;
  let stringChars = 0;
  let problem: HttpError | null = null;
  const stop = (e: HttpError) => {
    problem ??= e;
  };
  parser.on('error', (e) => stop(unreadable(`${entry.fileName}: ${String(e.message).slice(0, 160)}`)));
  parser.on('opentag', (tag) => {
    if (++depth > XLSX_LIMITS.xmlDepth)
      return stop(bad(fill('batch.xmlTooDeep', 'has XML nested deeper than {max} levels ({part})', { max: XLSX_LIMITS.xmlDepth, part: entry.fileName })));
    const a = tag.attributes as Record<string, string>;
    const name = tag.name.slice(tag.name.indexOf(':') + 1); // x:row (a prefixed namespace) is a row
    if (kind === 'sheet') {
      if (name === 'dimension' && a.ref) {
        const [from, to] = String(a.ref).split(':').map(cellRef);
        const last = to ?? from; // "A1:XFD20001", or one cell
        if (last && last[0] > XLSX_LIMITS.columns) return stop(tooWide());
        if (last && last[1] > MAX_UPLOAD_ROWS + 1) return stop(tooTall());
      } else if (name === 'row') {
        rows++;
        column = 0;
        const r = Number(a.r ?? 0);
        rowNumber = r || rowNumber + 1;
        if (rows > MAX_UPLOAD_ROWS + 1 || r > MAX_UPLOAD_ROWS + 1) return stop(tooTall());
      } else if (name === 'c') {
        column = a.r ? (cellRef(String(a.r))?.[0] ?? column + 1) : column + 1;
        if (column > XLSX_LIMITS.columns) return stop(tooWide());
        if (++cells > XLSX_LIMITS.cells) return stop(bad(fill('batch.tooManyCells', 'has more than {max} cells', { max: count(XLSX_LIMITS.cells) }), 413));
      }
    } else if (kind === 'sharedStrings') {
      if (name === 'sst' && Number(a.uniqueCount ?? 0) > XLSX_LIMITS.sharedStrings)
        return stop(bad(fill('batch.tooManyTexts', 'has more than {max} different texts', { max: count(XLSX_LIMITS.sharedStrings) }), 413));
      if (name === 'si' && ++strings > XLSX_LIMITS.sharedStrings)
        return stop(bad(fill('batch.tooManyTexts', 'has more than {max} different texts', { max: count(XLSX_LIMITS.sharedStrings) }), 413));
    } else if (kind === 'workbook') {
      if (name === 'sheet' && facts.firstSheetRid === undefined)
        facts.firstSheetRid = String(a['r:id'] ?? Object.entries(a).find(([k]) => k.endsWith(':id'))?.[1] ?? '');
    } else if (kind === 'rels') {
      if (name === 'Relationship' && a.Id && a.Target) (facts.rels ??= new Map()).set(String(a.Id), String(a.Target));
    }
  });
  parser.on('closetag', () => {
    depth--;
  });
  parser.on('text', (t) => {
    // a text far past any cell is refused as it comes (where it is, when the sheet says); a cell's own limit
    // (2,000 characters) is checked when it is read, with its row and column named (cellText)
    if (t.length > MAX_XML_TEXT)
      return stop(
        kind === 'sheet' && rowNumber
          ? cellProblem(rowNumber, Math.max(0, column - 1), undefined, tooLong)
          : bad(fill('batch.textTooLong', 'has a text longer than {max} characters', { max: count(MAX_XML_TEXT) })),
      );
    if (kind === 'sharedStrings' && (stringChars += t.length) > XLSX_LIMITS.sharedStringChars)
      stop(bad(fill('batch.tooMuchText', 'has more than {size} of text', { size: mb(XLSX_LIMITS.sharedStringChars) }), 413));
  });
  const chunks: Buffer[] = [];
  const text = new TextDecoder('utf-8');
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      budget.left -= chunk.length;
      if (budget.left < 0) throw bad(fill('batch.unpacksTooLarge', 'unpacks to more than {size}', { size: mb(XLSX_LIMITS.unpackedBytes) }), 413);
      chunks.push(chunk);
      parser.write(text.decode(chunk, { stream: true }));
      if (problem) throw problem;
    }
    parser.close();
    if (problem) throw problem;
  } catch (e) {
    stream.destroy();
    if (e instanceof HttpError) throw e;
    // yauzl: a part that inflates past the size the directory states (stopped there), broken deflate data
    const message = String((e as Error).message ?? e);
    if (message.startsWith('too many bytes'))
      throw bad(
        fill('batch.partLargerThanSaid', 'is not a readable XLSX workbook: {part} unpacks to more than its zip directory says ({bytes} bytes)', {
          part: entry.fileName,
          bytes: count(entry.uncompressedSize),
        }),
      );
    throw unreadable(`${entry.fileName}: ${String((e as Error).message ?? e).slice(0, 160)}`);
  }
  return { bytes: Buffer.concat(chunks), facts };
}

async function readXlsx(buf: Buffer): Promise<string[][]> {
  const { fromBufferPromise } = await import('yauzl');
  let zip: ZipFile;
  try {
    zip = await fromBufferPromise(buf, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  } catch (e) {
    throw unreadable(String((e as Error).message ?? e).slice(0, 200));
  }
  // the central directory, before anything is inflated: how many parts, what each says it unpacks to
  if (zip.entryCount > XLSX_LIMITS.parts) throw bad(fill('batch.tooManyParts', 'has more than {max} parts', { max: count(XLSX_LIMITS.parts) }), 413);
  const entries = new Map<string, Entry>();
  let declared = 0;
  try {
    for await (const e of zip.eachEntry()) {
      declared += e.uncompressedSize;
      if (declared > XLSX_LIMITS.unpackedBytes)
        throw bad(fill('batch.unpacksTooLarge', 'unpacks to more than {size}', { size: mb(XLSX_LIMITS.unpackedBytes) }), 413);
      if (e.uncompressedSize >= XLSX_LIMITS.ratioFloor && e.uncompressedSize > XLSX_LIMITS.ratio * Math.max(1, e.compressedSize)) {
        throw bad(
          fill('batch.zipBomb', 'unpacks to more than {ratio} times its size ({part}): a zip bomb, not a workbook', {
            ratio: XLSX_LIMITS.ratio,
            part: e.fileName,
          }),
          413,
        );
      }
      entries.set(e.fileName, e);
    }
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw unreadable(String((e as Error).message ?? e).slice(0, 200));
  }
  const { SaxesParser } = await import('saxes');
  const budget = { left: XLSX_LIMITS.unpackedBytes };
  const part = (name: string, kind: PartKind) => {
    const e = entries.get(name);
    return e ? checkPart(zip, e, kind, budget, SaxesParser) : null;
  };
  const workbook = await part('xl/workbook.xml', 'workbook');
  const rels = await part('xl/_rels/workbook.xml.rels', 'rels');
  if (!workbook || !rels) throw bad(fill('batch.noWorkbookPart', 'is not a readable XLSX workbook: it has no xl/workbook.xml', {}));
  // the first sheet, as the workbook lists them (a relative target is under xl/)
  const target = rels.facts.rels?.get(workbook.facts.firstSheetRid ?? '');
  const sheetName = target ? (target.startsWith('/') ? target.slice(1) : `xl/${target}`) : undefined;
  if (!sheetName || !/^xl\/worksheets\/sheet\d+\.xml$/.test(sheetName) || !entries.has(sheetName)) throw bad(fill('batch.noWorksheet', 'has no worksheet', {}));
  const styles = await part('xl/styles.xml', 'styles');
  const shared = await part('xl/sharedStrings.xml', 'sharedStrings');
  const sheet = (await part(sheetName, 'sheet'))!;

  // exceljs reads the checked parts, in the order its streaming reader reads without temporary files: the
  // relationships and workbook, the styles (dates are numbers formatted as dates), the shared strings, the sheet
  const { default: Excel } = await import('exceljs');
  const { ZipFile: ZipWriter } = await import('yazl');
  const out = new ZipWriter();
  out.addBuffer(rels.bytes, 'xl/_rels/workbook.xml.rels', { compress: false });
  out.addBuffer(workbook.bytes, 'xl/workbook.xml', { compress: false });
  if (styles) out.addBuffer(styles.bytes, 'xl/styles.xml', { compress: false });
  out.addBuffer(
    shared?.bytes ??
      Buffer.from('<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>'),
    'xl/sharedStrings.xml',
    { compress: false },
  );
  out.addBuffer(sheet.bytes, sheetName, { compress: false });
  out.end();
  const zipped = out.outputStream as unknown as Readable;
  const reader = new Excel.stream.xlsx.WorkbookReader(zipped, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: styles ? 'cache' : 'ignore',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const table: string[][] = [];
  try {
    for await (const ws of reader) {
      for await (const row of ws) {
        if (row.number > MAX_UPLOAD_ROWS + 1) throw tooTall();
        if (row.cellCount > XLSX_LIMITS.columns) throw tooWide();
        const cells: string[] = [];
        for (let c = 1; c <= row.cellCount; c++) cells.push(cellText(row.getCell(c).value, row.number, c, table[0]));
        table.push(cells);
      }
      return table;
    }
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw unreadable(String((e as Error).message ?? e).slice(0, 200));
  } finally {
    zipped.destroy();
  }
  throw bad(fill('batch.noWorksheet', 'has no worksheet', {}));
}

/** A cell's text; `col` counts from 1, `headers` is the header row (read first) to name the column. */
function cellText(v: ExcelJS.CellValue, row: number, col: number, headers: string[] | undefined): string {
  const problem = (what: Sentence) => cellProblem(row, col - 1, headers?.[col - 1], what);
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  let s: string;
  if (typeof v === 'object') {
    if ('formula' in v || 'sharedFormula' in v) throw problem(fill('batch.formula', 'a formula; upload values only', {}));
    if ('error' in v) throw problem(fill('batch.errorValue', 'an error value', {}));
    s = 'richText' in v ? v.richText.map((t) => t.text).join('') : 'text' in v ? String(v.text) : '';
  } else s = String(v);
  if (s.length > MAX_CELL) throw problem(tooLong);
  return s;
}
