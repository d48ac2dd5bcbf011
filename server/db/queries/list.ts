// What a list query gets from a route: page window, an ORDER BY built only from allow-listed columns, a filter.
export interface ListWindow {
  page: number;
  size: number;
  orderBy: string;
  q: string | null;
}
export const window = (l: ListWindow) => `order by ${l.orderBy} limit ${Number(l.size)} offset ${Number(l.page) * Number(l.size)}`;
export const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
