// A catalogue resource's streamed export: CSV and XLSX through the one table writer (server/http/tabular.ts), NDJSON
// as lines; keyset pages by id, each read when the socket took the last, so memory stays flat whatever the size.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { actionCodes, labelOf } from '../../contract';
import { HttpError, INVALID_REQUEST, fill } from '../http/kit';
import { audit } from '../audit/trail';
import { clientZone, sendTable, stamp, type Table } from '../http/tabular';
import type { CrudResource } from './context';
import type { Row } from './hooks';

export const EXPORT_PAGE = 2000;

export function exportRoutes(app: FastifyInstance, crud: CrudResource) {
  const { r, db, sql, hooks, fields, paths, scopeOf, listWhere, parseList, toRow } = crud;
  if (r.export?.length) {
    // a list that exports CSV exports XLSX too: both through the shared writer (server/http/tabular.ts)
    const formats: string[] = [...r.export, ...(r.export.includes('csv') ? ['xlsx'] : [])];
    const columns = [
      'id',
      ...Object.entries(fields)
        .filter(
          ([k, f]) =>
            f.kind !== 'children' && f.kind !== 'refs' && f.kind !== 'image' && f.kind !== 'file' && !f.writeOnly && !(r.audit?.omit ?? []).includes(k),
        )
        .map(([k]) => k),
      ...(r.timestamps ? ['createdAt', 'updatedAt'] : []),
    ];
    const isTime = (c: string) => c === 'createdAt' || c === 'updatedAt' || fields[c]?.kind === 'timestamp' || fields[c]?.kind === 'datetime';
    // titles as the screens name columns; a reference whose label another column shares (divisionId and divisionName
    // are both "Division") is named for what it holds: "Division id"
    const labelled = (c: string) => (c === 'id' ? 'Id' : c === 'createdAt' ? 'Created' : c === 'updatedAt' ? 'Updated' : fields[c] ? labelOf(c, fields[c]) : c);
    const titleOf = (c: string) => {
      const label = labelled(c);
      return fields[c]?.kind === 'ref' && columns.some((o) => o !== c && labelled(o).toLowerCase() === label.toLowerCase()) ? `${label} id` : label;
    };
    app.get(paths.export, { config: { privileges: actionCodes(r, 'view') } }, async (req, reply) => {
      const raw = { ...((req.query ?? {}) as Record<string, unknown>) };
      const format = (raw.format ?? 'csv') as string;
      // `titles=1`: the header names the columns as the screens do ("Employee no."), for a person's download
      const titled = raw.titles === '1' || raw.titles === 'true';
      if (raw.titles !== undefined && !titled && raw.titles !== '0' && raw.titles !== 'false')
        throw new HttpError(400, INVALID_REQUEST, [{ field: 'titles', ...fill('value.notOneOrZero', 'must be 1 or 0', {}) }]);
      delete raw.format;
      delete raw.titles;
      if (!formats.includes(format))
        throw new HttpError(400, INVALID_REQUEST, [
          { field: 'format', ...fill('value.notOneOf', 'must be one of {choices}', { choices: formats.join(', ') }) },
        ]);
      const f = parseList(raw);
      const scope = await scopeOf(db, req, actionCodes(r, 'view'));
      const params: unknown[] = [];
      const where = await listWhere(db, scope, f, params);
      await audit(db, req, { clientId: scope.clientId, action: 'export', entity: r.name, entityId: null, before: null, after: { format, query: req.query } });
      const n = params.length;
      // an extensible resource: one more column per user-defined field, `udf.<key>`
      const udfKeys = r.extensible && hooks.userFields && scope.clientId !== null ? (await hooks.userFields(db, scope.clientId)).map((d) => d.key) : [];
      const header = [...columns, ...udfKeys.map((k) => `udf.${k}`)];
      const cellsOf = (row: Row) => [...columns.map((c) => row[c]), ...udfKeys.map((k) => (row.udf as Record<string, unknown> | null)?.[k] ?? null)];
      // keyset pages by id, each read when the socket took the last: memory stays flat whatever the size
      async function* rowsOf(): AsyncGenerator<unknown[]> {
        let cursor = 0;
        for (;;) {
          const { rows } = await db.query<Record<string, unknown>>(
            `select ${sql.select(true)} from ${sql.from()} where ${where} and t.id > $${n + 1} order by t.id limit ${EXPORT_PAGE}`,
            [...params, cursor],
          );
          for (const raw of rows) yield cellsOf(toRow(raw));
          if (rows.length < EXPORT_PAGE) return;
          cursor = Number(rows[rows.length - 1].id);
        }
      }
      const stem = `${r.name}-${stamp()}`;
      if (format === 'csv' || format === 'xlsx') {
        const table: Table = {
          columns: [...columns.map((c) => ({ title: titled ? titleOf(c) : c, time: isTime(c) })), ...udfKeys.map((k) => ({ title: `udf.${k}` }))],
          zone: await clientZone(db, scope.clientId),
          rows: rowsOf(),
        };
        return sendTable(reply, format, stem, table, { sheet: r.label.many });
      }
      async function* ndjson() {
        let text = '',
          lines = 0;
        for await (const cells of rowsOf()) {
          text += JSON.stringify(Object.fromEntries(header.map((c, i) => [c, cells[i] ?? null]))) + '\n';
          if (++lines % 500 === 0) {
            yield text;
            text = '';
          }
        }
        if (text) yield text;
      }
      reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${stem}.${format}"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(ndjson(), { objectMode: true, highWaterMark: 1 }));
    });
  }
}
