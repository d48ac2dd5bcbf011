// The WHERE of a catalogue resource's list, export and picker options: the scope, the q search (with the ids a hook
// finds through another table, looked up first), and the list query's filters.
import { intQueryFields, listQuerySchema, type Fields, type ResourceDeclaration } from '../../contract';
import type { Db } from '../db/db';
import { query } from '../http/kit';
import type { ResourceHooks } from './hooks';
import { ResourceSql, type Scope } from './sql';

/** At most this many ids found through another table go into a search as a list (more: a subquery). */
const SEARCH_VIA_MAX = 1000;

export function listQuery(r: ResourceDeclaration<any>, sql: ResourceSql, hooks: ResourceHooks) {
  const fields = r.fields as Fields;
  const ListQuery = listQuerySchema(r);
  const intFields = intQueryFields(r);

  /** The ids a hook's q search finds through another table, looked up first (a list the planner can index and
   *  hash), or null when there are more than SEARCH_VIA_MAX (then the search reads them as a subquery). */
  async function searchVia(dbx: Db, scope: Scope, text: string): Promise<number[] | null> {
    if (!hooks.searchIds) return null;
    const tenant = r.scope.tenant === true && scope.clientId !== null;
    const { rows } = await dbx.query<{ id: number }>(
      `select distinct x.id from (${hooks.searchIds('$1', tenant ? '$2' : undefined)}) x(id) limit ${SEARCH_VIA_MAX + 1}`,
      tenant ? [ResourceSql.pattern(text), scope.clientId] : [ResourceSql.pattern(text)],
    );
    return rows.length > SEARCH_VIA_MAX ? null : rows.map((x) => Number(x.id));
  }
  /** WHERE of a list or export: scope, q over the searchable fields, the filters (filterConditions). */
  async function listWhere(dbx: Db, scope: Scope, f: Record<string, unknown>, params: unknown[]): Promise<string> {
    const { base, match } = await listParts(dbx, scope, f, params);
    return match ? `${base} and ${match}` : base;
  }
  /** The WHERE in two parts: `base` (scope and filters) and `match` (the q search, null without one). */
  async function listParts(dbx: Db, scope: Scope, f: Record<string, unknown>, params: unknown[]): Promise<{ base: string; match: string | null }> {
    let base = sql.scopeWhere(scope, params);
    const text = typeof f.q === 'string' ? f.q.trim() : '';
    const match = text ? sql.searchWhere(text, params, await searchVia(dbx, scope, text)) : null;
    for (const c of filterConditions(f)) base += ` and ${sql.filterWhere(c.field, c.value, params, c.op)}`;
    const picked = typeof f.scope === 'string' ? scope.pick?.(f.scope) : undefined; // issue 50: server/crud/scopes.ts
    if (picked) base += ` and ${picked(params)}`;
    return { base, match };
  }
  /** The list query's filters in force: an equality per filterable field, and a date's `From` / `To` bounds. */
  function filterConditions(f: Record<string, unknown>): { field: string; value: unknown; op: '=' | '>=' | '<=' }[] {
    const given = (v: unknown) => v !== undefined && v !== null && v !== '';
    const out: { field: string; value: unknown; op: '=' | '>=' | '<=' }[] = [];
    for (const [k, fd] of Object.entries(fields)) {
      if (!fd.filter) continue;
      if (given(f[k])) out.push({ field: k, value: f[k], op: '=' });
      if (fd.kind === 'date' && given(f[`${k}From`])) out.push({ field: k, value: f[`${k}From`], op: '>=' });
      if (fd.kind === 'date' && given(f[`${k}To`])) out.push({ field: k, value: f[`${k}To`], op: '<=' });
    }
    return out;
  }
  const parseList = (raw: unknown) => query(raw, ListQuery, intFields) as Record<string, unknown> & { page?: number; size?: number; sort?: string };
  return { ListQuery, searchVia, listWhere, listParts, filterConditions, parseList };
}
