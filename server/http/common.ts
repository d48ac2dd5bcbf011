// What every route shares: the request's principal, validation with the contract schemas, errors in the
// shape the console's toast chain reads, list paging/sorting, and the audit trail.
import type { FastifyRequest } from 'fastify';
import { ListQuery, PAGE_SIZE, parseSort, validate, type PrivilegeEntry, type Violation } from '../../contract';
import type { Struct } from 'superstruct';
import type { Db } from '../db/db';
import { insertAudit, type AuditFields } from '../db/queries/audit';
import type { ListWindow } from '../db/queries/list';

export interface Principal {
  userId: number;
  username: string;
  clientId: number | null;
  jti: string;
  entries: PrivilegeEntry[];
  held: Set<string>;
}

declare module 'fastify' {
  interface FastifyRequest { principal?: Principal }
  interface FastifyContextConfig { privileges?: string[]; mode?: 'ONLY_ONE' | 'ALL'; open?: boolean; needsClient?: boolean }
}

export class HttpError extends Error {
  constructor(public status: number, message: string, public violations?: Violation[]) { super(message); }
}
const NAMES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 423: 'Locked', 500: 'Internal Server Error' };
export const errorBody = (status: number, message: string, violations?: Violation[]) => ({ status, error: NAMES[status] ?? 'Error', message, ...(violations ? { violations } : {}) });

export function body<T>(value: unknown, struct: Struct<T, any>): T {
  const r = validate(value ?? {}, struct);
  if (!r.ok) throw new HttpError(400, 'Validation failed', r.violations);
  return r.value;
}

export function principal(req: FastifyRequest): Principal {
  if (!req.principal) throw new HttpError(401, 'JWT-Invalid');
  return req.principal;
}
/** The selected client of the request; a route that works inside a client needs one. */
export function clientOf(req: FastifyRequest): number {
  const p = principal(req);
  if (p.clientId === null) throw new HttpError(403, 'Select a client first');
  return p.clientId;
}
/** Division ids the user's entries matching `codes` cover (§6). */
export function divisionsFor(p: Principal, codes: string[]): number[] {
  const s = new Set<number>();
  for (const e of p.entries) if (e.privilegeIds.some((c) => codes.includes(c))) e.divisionIds.forEach((d) => s.add(d));
  return [...s];
}

export type ListParams = ListWindow;

/** Query strings arrive as text: whole numbers become numbers so the contract's integer() rules apply. */
function coerceQuery(query: unknown, intFields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...((query ?? {}) as Record<string, unknown>) };
  for (const k of intFields) if (typeof out[k] === 'string' && /^-?\d{1,15}$/.test(out[k] as string)) out[k] = Number(out[k]);
  return out;
}

/** Validates a query string with a contract schema (ListQuery or one built on it); 400 with violations otherwise. */
export function query<T>(value: unknown, struct: Struct<T, any>, intFields: readonly string[] = ['page', 'size']): T {
  const r = validate(coerceQuery(value, intFields), struct);
  if (!r.ok) throw new HttpError(400, 'Validation failed', r.violations);
  return r.value;
}

/** page (0-based), size (default PAGE_SIZE), sort=field,asc|desc pairs over an allow-list, q. */
export function listParams(raw: unknown, sortable: Record<string, string>, defaultOrder: string, struct: Struct<any, any> = ListQuery): ListParams {
  const q = query(raw, struct) as ListQuery;
  let orderBy = defaultOrder;
  try {
    const sorts = parseSort(q.sort, Object.keys(sortable));
    if (sorts.length) orderBy = sorts.map((s) => `${sortable[s.field]} ${s.dir}`).join(', ') + `, ${sortable.id ?? 'id'} asc`;
  } catch (e) {
    throw new HttpError(400, 'Validation failed', [{ field: 'sort', message: (e as Error).message }]);
  }
  return { page: q.page ?? 0, size: q.size ?? PAGE_SIZE, orderBy, q: q.q?.trim() ? q.q.trim() : null };
}

/** The audit row of an operator's change; call it inside the change's transaction. */
export async function audit(db: Db, req: FastifyRequest, a: Omit<AuditFields, 'actor'> & { actor?: string }) {
  await insertAudit(db, { ...a, actor: a.actor ?? req.principal?.username ?? 'anonymous' });
}

/** A route parameter that must be a positive whole number; anything else is "not found". */
export function idParam(req: FastifyRequest, what: string): number {
  const id = Number((req.params as Record<string, string>).id);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw new HttpError(404, `${what} not found`);
  return id;
}

export const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : d === null || d === undefined ? null : String(d));
export const dateOnly = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 10) : d === null || d === undefined ? null : String(d).slice(0, 10));
