// Event history export [0.2.2.0 or 0.6.2.0], tenant by tenant, with the same filters as the history list
// (eventFilters in ./events.ts). Two doors onto one producer:
//   GET /event/manage/events/export?format=csv|xlsx|ndjson&…     the file itself, streamed (CSV and XLSX by the shared
//       writer ./tabular.ts: a byte-order mark, times with the client's offset, the zone in the time column's header)
//   GET /event/manage/events/export/progress?format=csv|ndjson&… the same rows as a text/event-stream for the
//       console's stream helper (src/api/stream.ts, §7): `start` {total, header, filename}, then per page `rows`
//       (the page's text as one JSON string) and `progress` {done, total, cursor}, and finally `end` {done, total}.
//       A client that lost the connection asks again with beforeId=<cursor> and carries on where it was.
// Pages are read newest first by keyset over (client_id, id desc) — `id < last id of the previous page`, never
// OFFSET — and only when the socket has taken the previous one (Readable.from pulls on demand), so memory stays
// constant whatever the size and a slow reader slows the reads instead of filling the heap. Rows stored after the
// first page are not part of the export: the first page's newest id bounds it.
import { eventDivisions } from '../auth/eventScope';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API, PRIV } from '../../contract';
import type { Db } from '../db/db';
import { HttpError, clientOf, fill, principal, INVALID_REQUEST } from './kit';
import { iso } from '../db/values';
import { audit } from '../audit/trail';
import { eventFilters } from './events';
import { countEvents, exportEventPage } from '../db/queries/eventQueries';
import { TABULAR_TYPES, clientZone, csvHead, csvText, cellsOf, headerOf, sendTable, stamp, type Column } from './tabular';
import type { RouteDoc } from '../openapi/declared';

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  file: { response: 'file', summary: 'Events as CSV, XLSX or NDJSON' },
  progress: { summary: 'An export with its progress, as server-sent events' },
} satisfies Record<string, RouteDoc>;

export const EXPORT_PATH = API.eventsExport;
export const EXPORT_PROGRESS_PATH = API.eventsExportProgress;
export const EXPORT_FORMATS = ['csv', 'xlsx', 'ndjson'] as const;
/** The formats the progress stream carries (text pages; an XLSX is a zip, downloaded whole from the file route). */
export const PROGRESS_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** Rows per keyset page: big enough that PGlite's per-query cost disappears, small enough to stay constant memory. */
export const EXPORT_PAGE = 2000;

export const CSV_COLUMNS = [
  'id',
  'time',
  'eventCode',
  'eventSourceId',
  'eventSourceName',
  'eventPointId',
  'eventPointName',
  'message',
  'alert',
  'priority',
  'acknowledge',
  'process',
] as const;

interface Row {
  id: string | number;
  at: Date | string;
  event_code: number;
  event_source_id: string;
  event_source_name: string | null;
  event_point_id: string;
  event_point_name: string | null;
  message: string;
  alert: boolean;
  priority: number;
  alarm_state: string | null;
}

/** A row's cells in CSV_COLUMNS' order (the time an instant: the writer shows it in the client's zone). */
const cellsOfRow = (r: Row): unknown[] => {
  const ack = r.alarm_state === 'acknowledged' || r.alarm_state === 'processed';
  return [
    Number(r.id),
    iso(r.at),
    r.event_code,
    r.event_source_id,
    r.event_source_name,
    r.event_point_id,
    r.event_point_name,
    r.message,
    r.alert,
    r.priority,
    ack,
    r.alarm_state === 'processed',
  ];
};
const ndjsonLine = (r: Row) =>
  JSON.stringify({
    id: Number(r.id),
    time: iso(r.at),
    eventCode: r.event_code,
    eventSourceId: r.event_source_id,
    eventSourceName: r.event_source_name,
    eventPointId: r.event_point_id,
    eventPointName: r.event_point_name,
    message: r.message,
    alert: r.alert,
    priority: r.priority,
    acknowledge: r.alarm_state === 'acknowledged' || r.alarm_state === 'processed',
    process: r.alarm_state === 'processed',
  }) + '\n';
/** The export's columns for the shared writer (./tabular.ts): `time` is an instant, its header names the zone. */
export const EXPORT_COLUMNS: Column[] = CSV_COLUMNS.map((c) => ({ title: c, time: c === 'time' }));
/** The CSV file's start in `zone`: the byte-order mark and the header line ("time (Asia/Kuala_Lumpur)"). */
export const csvHeader = (zone: string) => csvHead(headerOf(EXPORT_COLUMNS, zone));

/** `zone`: the client's, that CSV and XLSX show times in (UTC when not given). */
export interface ExportRequest {
  clientId: number;
  format: ExportFormat;
  where: string;
  params: unknown[];
  zone?: string;
}

/** Validates format and filters (400 with violations before a byte is sent). */
export async function exportRequest(req: FastifyRequest, db: Db, formats: readonly string[] = EXPORT_FORMATS): Promise<ExportRequest> {
  const clientId = clientOf(req);
  const q = (req.query ?? {}) as Record<string, unknown>;
  const format = q.format ?? 'csv';
  if (typeof format !== 'string' || !formats.includes(format)) {
    throw new HttpError(400, INVALID_REQUEST, [{ field: 'format', ...fill('value.notOneOf', 'must be one of {choices}', { choices: formats.join(', ') }) }]);
  }
  const { where, params } = eventFilters(clientId, q, null, await eventDivisions(principal(req), [PRIV.events.view, PRIV.eventReport]));
  return { clientId, format: format as ExportFormat, where, params, zone: await clientZone(db, clientId) };
}

/** Pages of formatted text, newest first, each read only when asked for; `last` is the page's oldest id. */
async function* eventPages(db: Db, x: ExportRequest, pageSize: number): AsyncGenerator<Row[]> {
  // the alarm state is looked up per row through the alarms primary key; most events have none
  let cursor: string | null = null;
  for (;;) {
    const rows: Row[] = await exportEventPage<Row>(db, x.where, x.params, cursor, pageSize);
    if (!rows.length) return;
    cursor = String(rows[rows.length - 1].id);
    yield rows;
    if (rows.length < pageSize) return;
  }
}

/** Pages of formatted text (CSV lines by the shared writer, or NDJSON), newest first, each read only when asked for; `last` is the page's oldest id. */
export async function* exportPages(db: Db, x: ExportRequest, pageSize = EXPORT_PAGE): AsyncGenerator<{ text: string; count: number; last: string }> {
  const zone = x.zone ?? 'UTC';
  for await (const rows of eventPages(db, x, pageSize)) {
    const text = x.format === 'ndjson' ? rows.map(ndjsonLine).join('') : csvText(rows.map((r) => cellsOf(EXPORT_COLUMNS, zone, cellsOfRow(r))));
    yield { text, count: rows.length, last: String(rows[rows.length - 1].id) };
  }
}

/** The rows of the export as cells (for the XLSX writer), page by page as they are taken. */
async function* exportRows(db: Db, x: ExportRequest): AsyncGenerator<unknown[]> {
  for await (const rows of eventPages(db, x, EXPORT_PAGE)) for (const r of rows) yield cellsOfRow(r);
}

/** How many rows the export will have (exact: the progress bar needs the real total). */
export async function exportTotal(db: Db, x: ExportRequest): Promise<number> {
  return countEvents(db, x.where, x.params);
}

const fileName = (format: ExportFormat) => `events-${stamp()}.${format}`;
const sse = (event: string, data: unknown, id?: string) => `event: ${event}\n${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

function stream(reply: FastifyReply, source: AsyncIterable<string>) {
  // one chunk in flight: the next page is read when the socket drained the last one
  return reply.send(Readable.from(source, { objectMode: true, highWaterMark: 1 }));
}

export function exportRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const config = { privileges: [PRIV.events.view, PRIV.eventReport] };

  app.get(EXPORT_PATH, { config: { ...config, ...DOCS.file } }, async (req, reply) => {
    const x = await exportRequest(req, db);
    await audit(db, req, {
      clientId: x.clientId,
      action: 'export',
      entity: 'events',
      entityId: null,
      before: null,
      after: { format: x.format, query: req.query },
    });
    if (x.format === 'xlsx')
      return sendTable(reply, 'xlsx', `events-${stamp()}`, { columns: EXPORT_COLUMNS, zone: x.zone!, rows: exportRows(db, x) }, { sheet: 'Events' });
    async function* file() {
      if (x.format === 'csv') yield csvHeader(x.zone!);
      for await (const page of exportPages(db, x)) yield page.text;
    }
    reply
      .header('content-type', x.format === 'csv' ? TABULAR_TYPES.csv : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName(x.format)}"`)
      .header('cache-control', 'no-store');
    return stream(reply, file());
  });

  app.get(EXPORT_PROGRESS_PATH, { config: { ...config, ...DOCS.progress } }, async (req, reply) => {
    const x = await exportRequest(req, db, PROGRESS_FORMATS);
    await audit(db, req, {
      clientId: x.clientId,
      action: 'export',
      entity: 'events',
      entityId: null,
      before: null,
      after: { format: x.format, query: req.query },
    });
    const total = await exportTotal(db, x);
    async function* events() {
      yield sse('start', { total, format: x.format, filename: fileName(x.format), header: x.format === 'csv' ? csvHeader(x.zone!) : '' });
      let done = 0;
      for await (const page of exportPages(db, x)) {
        done += page.count;
        // the page's text as one JSON string: exact bytes (CR LF of CSV included) on one data line
        yield sse('rows', page.text, page.last) + sse('progress', { done, total, cursor: page.last });
      }
      yield sse('end', { done, total });
    }
    reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-store').header('x-accel-buffering', 'no');
    return stream(reply, events());
  });
}
