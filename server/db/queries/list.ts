// What a list query gets from a route: page window, an ORDER BY built only from allow-listed columns, a filter.
import type { ListParams } from '../../http/kit';

/** A list's page, order and search as the http kit parsed them (one shape: server/http/kit.ts ListParams). */
export type ListWindow = ListParams;
export const window = (l: ListWindow) => `order by ${l.orderBy} limit ${Number(l.size)} offset ${Number(l.page) * Number(l.size)}`;
export const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
