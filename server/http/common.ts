// What every route shares: the request's principal, validation with the contract schemas, errors in the
// shape the console's toast chain reads, list paging/sorting, and the audit trail.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_SIZE, parseSort, validate, type PrivilegeEntry, type Violation } from '../../contract';
import type { Struct } from 'superstruct';
import type { Db } from '../db/db';

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

export interface ListParams { page: number; size: number; orderBy: string; q: string | null }
export function listParams(query: unknown, sortable: Record<string, string>, defaultOrder: string): ListParams {
  const q = (query ?? {}) as Record<string, string | undefined>;
  const violations: Violation[] = [];
  const page = q.page === undefined ? 0 : Number(q.page);
  const size = q.size === undefined ? PAGE_SIZE : Number(q.size);
  if (!Number.isInteger(page) || page < 0) violations.push({ field: 'page', message: 'must be a whole number from 0' });
  if (!Number.isInteger(size) || size < 1 || size > 1000) violations.push({ field: 'size', message: 'must be a whole number from 1 to 1000' });
  let orderBy = defaultOrder;
  try {
    const sorts = parseSort(q.sort, Object.keys(sortable));
    if (sorts.length) orderBy = sorts.map((s) => `${sortable[s.field]} ${s.dir}`).join(', ') + ', id asc';
  } catch (e) {
    violations.push({ field: 'sort', message: (e as Error).message });
  }
  if (violations.length) throw new HttpError(400, 'Validation failed', violations);
  return { page, size, orderBy, q: q.q?.trim() ? q.q.trim() : null };
}

export async function audit(db: Db, req: FastifyRequest, a: { clientId: number | null; action: string; entity: string; entityId: string | number | null; before: unknown; after: unknown }) {
  await db.query('insert into audit_log (client_id, actor, action, entity, entity_id, before, after) values ($1,$2,$3,$4,$5,$6,$7)', [
    a.clientId, req.principal?.username ?? 'anonymous', a.action, a.entity, a.entityId === null ? null : String(a.entityId),
    a.before === null ? null : JSON.stringify(a.before), a.after === null ? null : JSON.stringify(a.after),
  ]);
}

export const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : d === null || d === undefined ? null : String(d));
export const dateOnly = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 10) : d === null || d === undefined ? null : String(d).slice(0, 10));
export type Reply = FastifyReply;
