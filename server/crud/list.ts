// A catalogue resource's list (page, size, sort, q, filters; a total counted up to a cap) and its options for
// pickers (ids, q; the title as the label).
import type { FastifyInstance } from 'fastify';
import { LIST_COUNT_CAP, PAGE_SIZE, SEARCH_COUNT_CAP, actionCodes, apartFieldsOf, parseSort, sortableFields } from '../../contract';
import { HttpError, principal, fill, INVALID_REQUEST } from '../http/kit';
import { labelCodesOf, optionCodesOf, type CrudResource } from './context';

const OPTIONS_LIMIT = 50;
/** Rows a broad search walks in the asked order per row of the page it asks for, before it reads its matches instead
 *  (a search whose matches are 1 % of the rows or more finds its page in the window). */
export const SEARCH_WINDOW_PER_ROW = 100;
/** The most rows a broad search walks in the asked order before it reads its matches. */
const SEARCH_WINDOW_MAX = 20_000;

export function listRoutes(app: FastifyInstance, crud: CrudResource) {
  const { r, db, sql, hooks, paths, scopeOf, listParts, filterConditions, parseList, withOwned, toRow } = crud;
  const countCap = crud.opts.countCap ?? LIST_COUNT_CAP;
  const searchCap = Math.min(crud.opts.searchCountCap ?? SEARCH_COUNT_CAP, countCap);
  const windowPerRow = crud.opts.searchWindowPerRow ?? SEARCH_WINDOW_PER_ROW;
  const sortable = sortableFields(r);
  const [titleFirst, ...titleRest] = r.list.title as readonly string[];
  /**
   * A sort by the list's title sorts by the whole of it: the title column shows "Abdullah, Aisha" (its fields joined),
   * and a sort by its first field alone ordered people of one last name by when they were added (Jamal before Aisha).
   * The title's other fields follow in the same direction, each where it is sortable and not sorted by already.
   */
  const byWholeTitle = (order: { field: string; dir: 'asc' | 'desc' }[]) => {
    const at = order.findIndex((s) => s.field === titleFirst);
    if (at < 0 || !titleRest.length) return order;
    const more = titleRest.filter((k) => sortable.includes(k) && !order.some((s) => s.field === k)).map((field) => ({ field, dir: order[at].dir }));
    return [...order.slice(0, at + 1), ...more, ...order.slice(at + 1)];
  };
  const listCodes = [...actionCodes(r, 'view'), ...(r.privileges.list ?? [])];
  if (!r.singleton && (typeof r.routes !== 'object' || r.routes.list !== false))
    app.get(paths.list, { config: { privileges: listCodes, query: crud.ListQuery } }, async (req) => {
      const f = parseList(req.query);
      const scope = await scopeOf(db, req, listCodes);
      const params: unknown[] = [];
      const { base, match } = await listParts(db, scope, f, params);
      const where = match ? `${base} and ${match}` : base;
      const order = byWholeTitle(f.sort ? parseSort(f.sort, sortable) : parseSort(r.list.sort.join(','), sortable));
      const orderBy = [...order.map((s) => `${sql.expr(s.field)} ${s.dir}`), 't.id asc'].join(', ');
      const page = f.page ?? 0;
      const size = f.size ?? PAGE_SIZE;
      const offset = page * size;
      // issue 11: an exact count of every matching row was most of a page's time at 200,000 rows. At most countCap + 1
      // rows are counted; beyond, the total is a lower bound (`totalIsAtLeast`, "1–20 of 10,000+").
      const searching = typeof f.q === 'string' && f.q.trim() !== '';
      const filtered = filterConditions(f).length > 0 || !!f.scope || !!scope.bound?.length;
      // issue 13: the whole scope's count, where the resource keeps one (identities per division), is read, not counted
      const countUpTo = async () =>
        !searching && !filtered && hooks.countScope
          ? Math.min(await hooks.countScope(db, scope), countCap + 1)
          : Number(
              (await db.query<{ n: string }>(`select count(*)::text n from (select 1 from ${sql.from(where)} where ${where} limit ${countCap + 1}) x`, params))
                .rows[0].n,
            );
      // issue 13: a search first reads at most searchCap + 1 of its matches from the trigram bitmap, with only their
      // ids and sort keys, counted by a window and sorted, and the page's rows then by id. (The subquery's LIMIT keeps
      // the planner from walking the sort order's index instead: it guesses the matches are spread evenly, and
      // "Last77" lies behind 190,000 others in name order.)
      /** The answer for a page whose row ids are known. */
      const pageOf = async (ids: number[], total: number, totalIsAtLeast: boolean) => {
        const rows = ids.length
          ? (await db.query<Record<string, unknown>>(`select ${sql.select(true)} from ${sql.from()} where t.id = any($1::int[]) order by ${orderBy}`, [ids]))
              .rows
          : [];
        return { items: await withOwned(db, rows.map(toRow), scope.clientId), total, totalIsAtLeast, page, size };
      };
      const matches = async (cap: number) => {
        const keys = order.map((s, i) => `${sql.expr(s.field)} as k${i}`);
        const fenced = [...order.map((s, i) => `x.k${i} ${s.dir}`), 'x.id asc'].join(', ');
        const { rows: hits } = await db.query<{ id: number; n: string }>(
          `select x.id, count(*) over ()::text n from (select ${['t.id', ...keys].join(', ')}
        from ${sql.from(where + keys.join())} where ${where} limit ${cap + 1}) x order by ${fenced} limit ${size} offset ${offset}`,
          params,
        );
        return { ids: hits.map((x) => Number(x.id)), n: hits.length ? Number(hits[0].n) : null };
      };
      let n: number | null = null;
      if (searching && match) {
        const first = await matches(searchCap);
        n = first.n ?? (await countUpTo());
        if (n <= searchCap) return pageOf(first.ids, n, false);
        // More than searchCap match: a broad search ("CC-1", 55,000 of 200,000). Its page lies early in the asked
        // order, so that order's index is walked for a bounded window, each row tested, until the page and one more
        // row are found (the outer LIMIT stops the walk there). Where the window is too short (the matches lie
        // further on in that order), the matches are read and sorted as below, up to the list's count cap.
        const walk = Math.min(SEARCH_WINDOW_MAX, windowPerRow * (offset + size + 1));
        const { rows: walked } = await db.query<{ id: number }>(
          `select x.id from (select t.id, (${match}) m from ${sql.from(match + base + orderBy)} where ${base}
        order by ${orderBy} limit ${walk}) x where x.m limit ${size + 1} offset ${offset}`,
          params,
        );
        if (walked.length > size)
          return pageOf(
            walked.slice(0, size).map((x) => Number(x.id)),
            Math.max(searchCap, offset + size + 1),
            true,
          );
        if (searchCap < countCap) {
          const again = await matches(countCap);
          n = again.n ?? (await countUpTo());
          if (n <= countCap) return pageOf(again.ids, n, false);
        }
      }
      // one row more than the page: whether there are more rows is known without counting them
      const { rows } = await db.query<Record<string, unknown>>(
        `select ${sql.select(true)} from ${sql.from()} where ${where} order by ${orderBy} limit ${size + 1} offset ${offset}`,
        params,
      );
      const more = rows.length > size;
      if (more) rows.pop();
      // the last page (or a short first one) tells the total exactly; past the cap the rows seen so far are the bound
      let total = offset + rows.length;
      let totalIsAtLeast = false;
      if (n !== null) {
        // a search that found more than the cap: a lower bound until its last page
        if (more || !rows.length) {
          totalIsAtLeast = true;
          total = Math.max(countCap, offset + rows.length + (more ? 1 : 0));
        }
      } else if (more && offset + size + 1 > countCap) {
        totalIsAtLeast = true;
        total = offset + size + 1;
      } else if (more || (!rows.length && page > 0)) {
        const counted = await countUpTo();
        totalIsAtLeast = counted > countCap;
        total = Math.min(counted, countCap);
      }
      return { items: await withOwned(db, rows.map(toRow), scope.clientId), total, totalIsAtLeast, page, size };
    });
}

export function optionsRoutes(app: FastifyInstance, crud: CrudResource) {
  const { r, db, sql, paths, scopeOf, searchVia } = crud;
  const optionCodes = optionCodesOf(r);
  const labelCodes = labelCodesOf(r);
  if (!r.singleton)
    app.get(paths.options, { config: { privileges: labelCodes } }, async (req) => {
      const raw = (req.query ?? {}) as Record<string, unknown>;
      const text = typeof raw.q === 'string' ? raw.q.slice(0, 200).trim() : '';
      const ids = typeof raw.ids === 'string' && raw.ids !== '' ? raw.ids.split(',').map(Number) : [];
      if (ids.some((n) => !Number.isInteger(n) || n < 1 || n > 2_147_483_647) || ids.length > 1000)
        throw new HttpError(400, INVALID_REQUEST, [{ field: 'ids', ...fill('list.notWholeNumbers', 'must be whole numbers separated by commas', {}) }]);
      // a viewer of a record naming these rows reads the names of its ids; searching them is for who may pick them
      const picks = optionCodes.some((c) => principal(req).held.has(c));
      if (!ids.length && !picks) throw new HttpError(403, fill('privilege.missing', 'You do not have the privilege for this action', {}));
      const scope = await scopeOf(db, req, picks ? optionCodes : labelCodes);
      const params: unknown[] = [];
      let where = sql.scopeWhere(scope, params);
      if (ids.length) {
        params.push(ids);
        where += ` and t.id = any($${params.length}::int[])`;
      }
      if (text) where += ` and ${sql.searchWhere(text, params, await searchVia(db, scope, text))}`;
      const title = r.list.title.map((k) => `coalesce(${sql.expr(k)}::text, '')`).join(` || ', ' || `);
      // what tells two rows of one title apart (an identity's employee no. and division), shown when titles collide
      const apart = apartFieldsOf(r).map((k) => `nullif(${sql.expr(k)}::text, '')`);
      const detail = apart.length ? `nullif(concat_ws(' · ', ${apart.join(', ')}), '')` : 'null';
      const { rows } = await db.query<{ id: number; label: string; detail: string | null }>(
        `select t.id, ${title} as label, ${detail} as detail from ${sql.from()} where ${where} order by label, t.id limit ${ids.length || OPTIONS_LIMIT}`,
        params,
      );
      return { items: rows };
    });
}
