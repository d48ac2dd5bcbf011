// The one writer of every table the server hands out as a file (issue 29): the event history export, the catalogue's
// list exports, scheduled reports and the batch upload's error report. A file a person opens in a spreadsheet:
//   - CSV through csv-stringify (the csv project, as csv-parse reads uploads), starting with a UTF-8 byte-order mark so
//     Excel reads "Zoë 🙂" as written; RFC 4180 quoting, CR LF, a leading =,+,-,@ neutralised against formulas;
//   - XLSX through exceljs' streaming WorkbookWriter: the header row bold and frozen, numbers and booleans as cells;
//   - headers unique (a second "Division" is named for what it holds, or numbered as a last resort);
//   - times as ISO 8601 with the client's offset (2026-11-27T09:15:00+08:00), the zone named in the header
//     ("time (Asia/Kuala_Lumpur)").
// Rows come from an async iterable read only as the socket takes the file, so a large export is never whole in memory.
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { BOM, CSV_OPTIONS, uniqueHeaders, zonedHeader, zonedTime } from '../../contract/tabular';
import type { Db } from '../db/db';
import { clientTimezone } from '../db/queries/clients';
import { pipedInto } from '../streams';

export { BOM, uniqueHeaders, zonedTime };

export const TABULAR_FORMATS = ['csv', 'xlsx'] as const;
export type TabularFormat = (typeof TABULAR_FORMATS)[number];
export const TABULAR_TYPES: Record<TabularFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
/** A column of a table: its header and whether its cells are instants (shown in the zone, the zone in the header). */
export interface Column {
  title: string;
  time?: boolean;
}
/** A table to write: its columns, the zone its times are shown in, and its rows (cells in the columns' order). */
export interface Table {
  columns: Column[];
  zone: string;
  rows: AsyncIterable<unknown[]>;
}

/** The header row of `columns`: each time column names the zone, all unique. */
export const headerOf = (columns: Column[], zone: string): string[] => uniqueHeaders(columns.map((c) => (c.time ? zonedHeader(c.title, zone) : c.title)));

/** A row's cells as written: time columns in the zone. */
export const cellsOf = (columns: Column[], zone: string, cells: unknown[]): unknown[] => cells.map((v, i) => (columns[i]?.time ? zonedTime(v, zone) : v));

/** The zone a client's files show times in (its timezone; UTC for the platform's own lists). */
export async function clientZone(db: Db, clientId: number | null): Promise<string> {
  if (clientId === null) return 'UTC';
  return (await clientTimezone(db, clientId)) || 'UTC';
}

/** CSV lines of `rows` (no BOM, no header): a page of a streamed file, byte for byte what the stream writes. */
export const csvText = (rows: unknown[][]): string => (rows.length ? stringifySync(rows, CSV_OPTIONS) : '');
/** The start of a CSV file: the byte-order mark and the header line. */
export const csvHead = (header: string[]): string => BOM + stringifySync([header], CSV_OPTIONS);

/** A CSV file of `header` and `rows`, streamed (csv-stringify pulls the next row when the socket took the last). */
export function csvStream(header: string[], rows: AsyncIterable<unknown[]>): Readable {
  const out = stringify({ ...CSV_OPTIONS, bom: true });
  out.write(header);
  return pipedInto(Readable.from(rows, { highWaterMark: 1 }), out);
}

const xlsxCell = (v: unknown) =>
  v === null || v === undefined
    ? null
    : typeof v === 'number' || typeof v === 'boolean'
      ? v
      : v instanceof Date
        ? v.toISOString()
        : typeof v === 'object'
          ? JSON.stringify(v)
          : String(v);

/**
 * An XLSX file of `header` and `rows`, streamed: exceljs' WorkbookWriter writes each committed row into the zip as it
 * comes, and the next rows are read only when the reader has drained what was written. `about` adds a second sheet
 * of label/value lines (a report's period and row count).
 */
export function xlsxStream(header: string[], rows: AsyncIterable<unknown[]>, o: { sheet?: string; about?: () => unknown[][] } = {}): Readable {
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  void (async () => {
    const sheet = wb.addWorksheet((o.sheet ?? 'Export').replace(/[\\/?*[\]:]/g, ' ').slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = header.map((h) => ({ width: Math.min(60, Math.max(10, h.length + 2)) }));
    const head = sheet.addRow(header);
    head.font = { bold: true };
    head.commit();
    let n = 0;
    for await (const r of rows) {
      sheet.addRow(r.map(xlsxCell)).commit();
      if (++n % 500 === 0) {
        // let the zip flush what was committed; wait while the reader is behind
        await new Promise((resolve) => setImmediate(resolve));
        if (out.writableNeedDrain && !out.destroyed) await Promise.race([once(out, 'drain'), once(out, 'close')]);
        if (out.destroyed) return; // the reader went away: stop reading rows (the source's pages end here)
      }
    }
    sheet.commit();
    if (o.about) {
      const info = wb.addWorksheet('About');
      for (const r of o.about()) info.addRow(r.map(xlsxCell)).commit();
      info.commit();
    }
    await wb.commit();
  })().catch((e) => out.destroy(e as Error));
  return out;
}

/** A table as a file of `format`: the header from its columns (times in its zone), then its rows. */
export function tableStream(format: TabularFormat, t: Table, o: { sheet?: string; about?: () => unknown[][] } = {}): Readable {
  const header = headerOf(t.columns, t.zone);
  async function* rows() {
    for await (const r of t.rows) yield cellsOf(t.columns, t.zone, r);
  }
  return format === 'csv' ? csvStream(header, rows()) : xlsxStream(header, rows(), o);
}

/** `name` with the format's extension, safe in a content-disposition header. */
export const fileName = (stem: string, format: string) => `${stem.replace(/[^A-Za-z0-9._-]+/g, '-')}.${format}`;

/** Sends `t` as an attachment named `stem`.<format>. */
export function sendTable(reply: FastifyReply, format: TabularFormat, stem: string, t: Table, o: { sheet?: string } = {}) {
  reply
    .header('content-type', TABULAR_TYPES[format])
    .header('content-disposition', `attachment; filename="${fileName(stem, format)}"`)
    .header('cache-control', 'no-store');
  return reply.send(tableStream(format, t, o));
}

/** A stamp for a file name: the time now, without characters a file system refuses. */
export const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
