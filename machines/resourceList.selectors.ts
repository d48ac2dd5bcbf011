// What the list footer reads from a resourceList actor: the rows shown, the total and where paging may go.
import type { ResourceListContext, ResourceListSnapshot } from './resourceList';

export interface Pager {
  /** 1-based first and last row of this page (0 and 0 when it is empty). */
  from: number;
  to: number;
  /** Rows in all, or a lower bound when `atLeast` ("1–20 of 10,000+"). */
  total: number;
  atLeast: boolean;
  /** Pages in all, or a lower bound when `atLeast`. */
  pages: number;
  /** The last page's index, unknown while the total is a lower bound. */
  lastPage: number | null;
  hasNext: boolean;
}

/** Issue 11: beyond the server's count cap the total is a lower bound; next pages stay open until the end is seen. */
export function pagerOf(c: { items: readonly unknown[]; total: number; totalIsAtLeast: boolean; page: number; size: number }): Pager {
  const from = c.items.length === 0 ? 0 : c.page * c.size + 1;
  const to = c.items.length === 0 ? 0 : c.page * c.size + c.items.length;
  const pages = Math.max(1, Math.ceil(c.total / c.size));
  const lastPage = c.totalIsAtLeast ? null : pages - 1;
  return { from, to, total: c.total, atLeast: c.totalIsAtLeast, pages, lastPage, hasNext: lastPage === null ? c.items.length === c.size : c.page < lastPage };
}

const cache = new WeakMap<object, Pager>();
/** The pager of the current page (stable while the context is). */
export const selectPager = (s: ResourceListSnapshot): Pager => {
  let p = cache.get(s.context);
  if (!p) cache.set(s.context, (p = pagerOf(s.context)));
  return p;
};

/** What a list view shows of its actor, in one read (issue 48: each list view copied nine selectors of its own). */
export interface ListView<T = unknown> {
  items: T[];
  total: number;
  page: number;
  size: number;
  sort: ResourceListSnapshot['context']['sort'];
  filters: Record<string, string>;
  selection: number[];
  error: ResourceListContext['error'];
  busy: boolean;
  confirming: boolean;
  deleting: boolean;
}

/** The list's view; compare it with `sameListView` (`useSelector(list, selectListView, sameListView)`). */
export const selectListView = (s: ResourceListSnapshot): ListView => ({
  items: s.context.items,
  total: s.context.total,
  page: s.context.page,
  size: s.context.size,
  sort: s.context.sort,
  filters: s.context.filters,
  selection: s.context.selection,
  error: s.context.error,
  busy: s.hasTag('busy'),
  confirming: s.matches('confirmingDelete'),
  deleting: s.matches('deleting'),
});

/** Two reads of a list's view are the same when each of its parts is (a view re-renders on a change only). */
export function sameListView(a: ListView, b: ListView): boolean {
  return (Object.keys(a) as Array<keyof ListView>).every((k) => Object.is(a[k], b[k]));
}
