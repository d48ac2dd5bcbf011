// Event history export [0.2.2.0 or 0.6.2.0], tenant by tenant, with the same filters as the history list
// (eventFilters in ./events.ts). Two doors onto one producer:
//   GET /event/manage/events/export?format=csv|ndjson&…          the file itself, streamed
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
import { HttpError, audit, clientOf, iso, principal } from './common';
import { eventFilters } from './events';

export const EXPORT_PATH = API.eventsExport;
export const EXPORT_PROGRESS_PATH = API.eventsExportProgress;
export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** Rows per keyset page: big enough that PGlite's per-query cost disappears, small enough to stay constant memory. */
export const EXPORT_PAGE = 2000;

export const CSV_COLUMNS = ['id', 'time', 'eventCode', 'eventSourceId', 'eventSourceName', 'eventPointId', 'eventPointName', 'message', 'alert', 'priority', 'acknowledge', 'process'] as const;

interface Row {
  id: string | number; at: Date | string; event_code: number; event_source_id: string; event_source_name: string | null;
  event_point_id: string; event_point_name: string | null; message: string; alert: boolean; priority: number; alarm_state: string | null;
}

/** RFC 4180 cell (as src/resources/csv.ts): quoted when needed, a leading =,+,-,@ neutralised against spreadsheet formulas. */
const cell = (v: string | null) => {
  if (v === null) return '';
  const s = /^[=+\-@]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const csvLine = (r: Row) => {
  const ack = r.alarm_state === 'acknowledged' || r.alarm_state === 'processed';
  return `${r.id},${iso(r.at)},${r.event_code},${cell(r.event_source_id)},${cell(r.event_source_name)},${cell(r.event_point_id)},${cell(r.event_point_name)},${cell(r.message)},${r.alert},${r.priority},${ack},${r.alarm_state === 'processed'}\r\n`;
};
const ndjsonLine = (r: Row) => JSON.stringify({
  id: Number(r.id), time: iso(r.at), eventCode: r.event_code, eventSourceId: r.event_source_id, eventSourceName: r.event_source_name,
  eventPointId: r.event_point_id, eventPointName: r.event_point_name, message: r.message, alert: r.alert, priority: r.priority,
  acknowledge: r.alarm_state === 'acknowledged' || r.alarm_state === 'processed', process: r.alarm_state === 'processed',
}) + '\n';
export const CSV_HEADER = CSV_COLUMNS.join(',') + '\r\n';

export interface ExportRequest { clientId: number; format: ExportFormat; where: string; params: unknown[] }

/** Validates format and filters (400 with violations before a byte is sent). */
export async function exportRequest(req: FastifyRequest, db: Db): Promise<ExportRequest> {
  const clientId = clientOf(req);
  const q = (req.query ?? {}) as Record<string, unknown>;
  const format = q.format ?? 'csv';
  if (typeof format !== 'string' || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new HttpError(400, 'Validation failed', [{ field: 'format', message: `must be one of ${EXPORT_FORMATS.join(', ')}` }]);
  }
  const { where, params } = eventFilters(clientId, q, null, await eventDivisions(principal(req), [PRIV.events.view, PRIV.eventReport]));
  return { clientId, format: format as ExportFormat, where, params };
}

/** Pages of formatted text, newest first, each read only when asked for; `last` is the page's oldest id. */
export async function* exportPages(db: Db, x: ExportRequest, pageSize = EXPORT_PAGE): AsyncGenerator<{ text: string; count: number; last: string }> {
  const line = x.format === 'csv' ? csvLine : ndjsonLine;
  const n = x.params.length;
  // the alarm state is looked up per row through the alarms primary key; most events have none
  const sql = (cursor: boolean) => `select e.id, e.at, e.event_code, e.event_source_id, e.event_source_name, e.event_point_id, e.event_point_name,
      e.message, e.alert, e.priority, a.state as alarm_state
    from events e left join alarms a on a.event_id = e.id
    where ${x.where}${cursor ? ` and e.id < $${n + 1}::bigint` : ''} order by e.id desc limit ${pageSize}`;
  let cursor: string | null = null;
  for (;;) {
    const { rows }: { rows: Row[] } = await db.query<Row>(sql(cursor !== null), cursor === null ? x.params : [...x.params, cursor]);
    if (!rows.length) return;
    let text = '';
    for (const r of rows) text += line(r);
    cursor = String(rows[rows.length - 1].id);
    yield { text, count: rows.length, last: cursor };
    if (rows.length < pageSize) return;
  }
}

/** How many rows the export will have (exact: the progress bar needs the real total). */
export async function exportTotal(db: Db, x: ExportRequest): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`select count(*)::text n from events e where ${x.where}`, x.params);
  return Number(rows[0].n);
}

const fileName = (format: ExportFormat) => `events-${new Date().toISOString().replace(/[:.]/g, '-')}.${format}`;
const sse = (event: string, data: unknown, id?: string) => `event: ${event}\n${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

function stream(reply: FastifyReply, source: AsyncIterable<string>) {
  // one chunk in flight: the next page is read when the socket drained the last one
  return reply.send(Readable.from(source, { objectMode: true, highWaterMark: 1 }));
}

export function exportRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const config = { privileges: [PRIV.events.view, PRIV.eventReport] };

  app.get(EXPORT_PATH, { config }, async (req, reply) => {
    const x = await exportRequest(req, db);
    await audit(db, req, { clientId: x.clientId, action: 'export', entity: 'events', entityId: null, before: null, after: { format: x.format, query: req.query } });
    async function* file() {
      if (x.format === 'csv') yield CSV_HEADER;
      for await (const page of exportPages(db, x)) yield page.text;
    }
    reply.header('content-type', x.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName(x.format)}"`)
      .header('cache-control', 'no-store');
    return stream(reply, file());
  });

  app.get(EXPORT_PROGRESS_PATH, { config }, async (req, reply) => {
    const x = await exportRequest(req, db);
    await audit(db, req, { clientId: x.clientId, action: 'export', entity: 'events', entityId: null, before: null, after: { format: x.format, query: req.query } });
    const total = await exportTotal(db, x);
    async function* events() {
      yield sse('start', { total, format: x.format, filename: fileName(x.format), header: x.format === 'csv' ? CSV_HEADER : '' });
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
