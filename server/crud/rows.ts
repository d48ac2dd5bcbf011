// Reading a catalogue resource's rows: a row as the API gives it (times as ISO text), its children and refs fields
// (owned parts, one query for a whole page), and one row by id within a scope (404 outside it).
import { columnOf, type Fields, type ResourceDeclaration } from '../../contract';
import type { Db } from '../db/db';
import { HttpError, fill } from '../http/kit';
import { iso } from '../db/values';
import type { Row } from './hooks';
import type { ResourceSql, Scope } from './sql';
import { tenantOf } from '../db/tenant';

/** Child field kinds whose column reads the same through JSON as through the driver (text, integers, dates as text). */
const JSON_SAFE_CHILD = new Set<string>(['text', 'email', 'number', 'choice', 'switch', 'date', 'ref', 'timezone']);

export function rowReader(r: ResourceDeclaration<any>, sql: ResourceSql) {
  const fields = r.fields as Fields;
  const one = r.label.one;

  function toRow(raw: Record<string, unknown>): Row {
    const out: Record<string, unknown> = { ...raw };
    for (const [k, f] of Object.entries(fields)) if (f.kind === 'timestamp' || f.kind === 'datetime') out[k] = iso(raw[k]);
    if (r.timestamps) {
      out.createdAt = iso(raw.createdAt);
      out.updatedAt = iso(raw.updatedAt);
    }
    return out as Row;
  }
  // The children and refs fields of a page (or a record), all in one query (issue 13: one query per field cost an
  // identity page one more round trip): each field one JSON array, a child as an object with its parent, id and fields
  // (dates as text, as the driver reads them at the top level), a link as [from, to]; ordered as one query per field was.
  const ownedParts = Object.entries(fields).flatMap(
    ([k, f]): Array<{ key: string; kind: 'children' | 'refs'; sql: (own: (alias: string) => string) => string }> => {
      if (f.kind === 'children') {
        const c = f.children!;
        const pairs = [
          `'_parent', c.${c.parent}`,
          `'id', c.id`,
          ...Object.entries(c.fields).map(([ck, cf]) => {
            if (!JSON_SAFE_CHILD.has(cf.kind)) throw new Error(`${r.name}.${k}.${ck}: a ${cf.kind} child field has no JSON reading`);
            return `'${ck}', c.${columnOf(ck, cf)}${cf.kind === 'date' ? '::text' : ''}`;
          }),
        ];
        const tenanted = r.scope.tenant === true;
        return [
          {
            key: k,
            kind: 'children',
            sql: (own) =>
              `(select coalesce(json_agg(json_build_object(${pairs.join(', ')}) order by c.id), '[]'::json) from ${c.table} c where c.${c.parent} = any($1::int[])${tenanted ? ` and ${own('c')}` : ''})`,
          },
        ];
      }
      if (f.kind === 'refs') {
        const t = f.through!;
        return [
          {
            key: k,
            kind: 'refs',
            sql: () =>
              `(select coalesce(json_agg(json_build_array(l.${t.from}, l.${t.to}) order by l.${t.to}), '[]'::json) from ${t.table} l where l.${t.from} = any($1::int[]))`,
          },
        ];
      }
      return [];
    },
  );
  const ownedTenant = ownedParts.some((p) => p.kind === 'children') && r.scope.tenant === true;
  async function withOwned(dbx: Db, rows: Row[], clientId: number | null): Promise<Row[]> {
    if (!rows.length || !ownedParts.length) return rows;
    const ids = rows.map((x) => x.id);
    const params: unknown[] = [ids];
    const own = ownedTenant ? tenantOf(params, clientId) : () => ''; // $2: the children's tenant
    const {
      rows: [got],
    } = await dbx.query<Record<string, unknown>>(`select ${ownedParts.map((p, i) => `${p.sql(own)} as o${i}`).join(', ')}`, params);
    ownedParts.forEach((p, i) => {
      const all = got[`o${i}`] as unknown[]; // json: both drivers hand it over parsed
      for (const row of rows) {
        (row as Record<string, unknown>)[p.key] =
          p.kind === 'children'
            ? (all as Array<Record<string, unknown>>).filter((x) => x._parent === row.id).map(({ _parent, ...rest }) => rest)
            : (all as Array<[number, number]>).filter((x) => x[0] === row.id).map((x) => x[1]);
      }
    });
    return rows;
  }
  /** Row `id` within `scope`; `lock`: locked to be edited (true) or deleted ('delete'). */
  async function load(dbx: Db, scope: Scope, id: number, lock: boolean | 'delete' = false): Promise<Row> {
    const params: unknown[] = [id];
    const where = `t.id = $1 and ${sql.scopeWhere(scope, params)}`;
    // no key update: serialises edits of the row, and leaves the key-share lock of a foreign key check free (an edit of
    // the row at a link's other end writing the same link: locked "for update", the two waited for each other,
    // docs/ARCHITECTURE.md lock order, server/db/lockOrder.test.ts)
    const edited = ` for no key update of t`;
    // lock for update: a row to be deleted, which the delete would lock so anyway; taken here, in the order the caller
    // loads its rows (their ids: delete.ts), not in the order of the delete's plan
    const deleted = ` for update of t`;
    const locked = lock === 'delete' ? deleted : lock ? edited : '';
    const { rows } = await dbx.query<Record<string, unknown>>(`select ${sql.select(false)} from ${sql.from()} where ${where}${locked}`, params);
    if (!rows[0]) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: one }));
    return (await withOwned(dbx, [toRow(rows[0])], scope.clientId))[0];
  }
  return { toRow, withOwned, load };
}
