// The checks a schema cannot make before a catalogue write: user-defined field values, the declaration's rules,
// references visible in the same scope (also those of owned rows), unique values (a pre-check; and the constraint as
// the truth: a 23505 the pre-check missed becomes a violation on the field), and the resource's own validate hook.
// All of them at once: one 400 naming every refused field, each once.
import type { FastifyRequest } from 'fastify';
import {
  checkAllRules,
  checkUserFieldValues,
  columnOf,
  fill,
  resourceByName,
  type AnyField,
  type Fields,
  type UserFieldDef,
  type Violation,
} from '../../contract';
import type { Db } from '../db/db';
import { tenant } from '../db/tenant';
import { HttpError, divisionsFor, principal, INVALID_REQUEST } from '../http/kit';
import { optionCodesOf, type CrudResource } from './context';
import { SQLSTATE, pgError } from '../db/pgError';
import type { CrudContext, Row } from './hooks';
import type { Scope } from './sql';

/** A reference the user may not use, said with its key (issue 48): "is not a door you may use". */
export const notYours = (what: string) => fill('record.notYoursToUse', 'is not a {what} you may use', { what });

export function writeChecks(crud: CrudResource) {
  const { r, hooks, sql, fields, entity } = crud;
  /** A value another row has (issue 48): the declaration's own sentence by its catalogue key (src/i18n/catalogue.ts
   *  catKey.unique: `resource.<name>[.child.<field>].unique.<field>`), else the generic one with its key. */
  const alreadyUsed = (path: string, name: string, f: AnyField, child?: string): Violation =>
    f.uniqueMessage
      ? { field: path, message: f.uniqueMessage, code: `resource.${r.name}${child ? `.child.${child}` : ''}.unique.${name}`, values: {} }
      : { field: path, ...fill('record.alreadyUsed', 'is already used by another {what}', { what: entity }) };
  async function references(dbx: Db, req: FastifyRequest, scope: Scope, input: Record<string, unknown>): Promise<Violation[]> {
    const out: Violation[] = [];
    const p = principal(req);
    for (const [k, f] of Object.entries(fields)) {
      if ((f.kind !== 'ref' && f.kind !== 'refs') || f.readOnly) continue;
      const ids = (f.kind === 'ref' ? [input[k]] : ((input[k] as unknown[] | undefined) ?? [])).filter((v): v is number => typeof v === 'number');
      if (!ids.length) continue;
      const target = resourceByName(f.target!)!;
      const what = target.label.one.toLowerCase();
      const params: unknown[] = [ids];
      let where = 'x.id = any($1::int[])';
      if (target.scope.tenant === true) where += ` and ${tenant(params, scope.clientId, 'x')}`;
      if (r.scope.division === k) {
        // the row's own division: one the user's grants for this action cover
        if (ids.some((id) => !(scope.divisions ?? []).includes(id))) {
          out.push({ field: k, ...notYours(what) });
          continue;
        }
      } else if (target.scope.division) {
        params.push(divisionsFor(p, optionCodesOf(target)));
        const col = target.scope.division === 'id' ? 'id' : columnOf(target.scope.division, (target.fields as Fields)[target.scope.division]);
        where += ` and x.${col} = any($${params.length}::int[])`;
      }
      const { rows } = await dbx.query<{ id: number }>(`select x.id from ${target.table} x where ${where}`, params);
      if (rows.length !== new Set(ids).size) out.push({ field: k, ...notYours(what) });
    }
    // references of owned rows (an access group's doors and schedules): each row's field named when it is not visible
    for (const [k, f] of Object.entries(fields)) {
      if (f.kind !== 'children' || !Array.isArray(input[k])) continue;
      for (const [ck, cf] of Object.entries(f.children!.fields)) {
        if (cf.kind !== 'ref' || cf.readOnly) continue;
        const rows = input[k] as Record<string, unknown>[];
        const ids = [...new Set(rows.map((x) => x?.[ck]).filter((v): v is number => typeof v === 'number'))];
        if (!ids.length) continue;
        const target = resourceByName(cf.target!)!;
        const params: unknown[] = [ids];
        let where = 'x.id = any($1::int[])';
        if (target.scope.tenant === true) where += ` and ${tenant(params, scope.clientId, 'x')}`;
        if (target.scope.division) {
          params.push(divisionsFor(p, optionCodesOf(target)));
          const col = target.scope.division === 'id' ? 'id' : columnOf(target.scope.division, (target.fields as Fields)[target.scope.division]);
          where += ` and x.${col} = any($${params.length}::int[])`;
        }
        const seen = new Set((await dbx.query<{ id: number }>(`select x.id from ${target.table} x where ${where}`, params)).rows.map((x) => Number(x.id)));
        rows.forEach((x, i) => {
          if (typeof x?.[ck] === 'number' && !seen.has(x[ck] as number)) out.push({ field: `${k}.${i}.${ck}`, ...notYours(target.label.one.toLowerCase()) });
        });
      }
    }
    return out;
  }

  async function uniques(dbx: Db, scope: Scope, clientId: number | null, input: Record<string, unknown>, id: number | null): Promise<Violation[]> {
    const out: Violation[] = [];
    for (const [k, f] of sql.writableFields()) {
      if (!f.unique || input[k] === undefined || input[k] === null) continue;
      const params: unknown[] = [input[k], id ?? 0];
      let where = `${columnOf(k, f)} = $1 and id <> $2`;
      if (f.unique === 'tenant' && r.scope.tenant === true) where += ` and ${tenant(params, scope.clientId)}`;
      if ((await dbx.query(`select 1 from ${r.table} where ${where} limit 1`, params)).rows.length) out.push(alreadyUsed(k, k, f));
    }
    for (const [k, f] of Object.entries(fields)) {
      if (f.kind !== 'children' || !Array.isArray(input[k])) continue;
      const c = f.children!;
      for (const [ck, cf] of Object.entries(c.fields)) {
        if (!cf.unique) continue;
        for (const [i, row] of (input[k] as Record<string, unknown>[]).entries()) {
          if (row[ck] === undefined || row[ck] === null) continue;
          const params: unknown[] = [row[ck], id ?? 0];
          let where = `${columnOf(ck, cf)} = $1 and ${c.parent} <> $2`;
          if (cf.unique === 'tenant' && clientId !== null) where += ` and ${tenant(params, clientId)}`;
          if ((await dbx.query(`select 1 from ${c.table} where ${where} limit 1`, params)).rows.length) out.push(alreadyUsed(`${k}.${i}.${ck}`, ck, cf, k));
        }
      }
    }
    return out;
  }

  /** The constraint is the truth: a unique violation the pre-check missed (a race) becomes a violation too. */
  function uniqueViolation(e: unknown, input: Record<string, unknown>): Violation | null {
    const err = pgError(e);
    if (err.code !== SQLSTATE.uniqueViolation) return null;
    const cols =
      /Key \(([^)]+)\)/
        .exec(err.detail ?? '')?.[1]
        .split(',')
        .map((s) => s.trim()) ?? [];
    const hit = (name: string, f: AnyField) => cols.includes(columnOf(name, f)) || (err.constraint ?? '').includes(columnOf(name, f));
    for (const [k, f] of sql.writableFields()) if (f.unique && hit(k, f)) return alreadyUsed(k, k, f);
    for (const [k, f] of Object.entries(fields)) {
      if (f.kind !== 'children') continue;
      for (const [ck, cf] of Object.entries(f.children!.fields)) {
        if (!cf.unique || !hit(ck, cf)) continue;
        const value = /=\((?:[^,]*, )?([^)]*)\)/.exec(err.detail ?? '')?.[1];
        const i = Math.max(
          0,
          ((input[k] as Record<string, unknown>[]) ?? []).findIndex((x) => String(x[ck]) === value),
        );
        return alreadyUsed(`${k}.${i}.${ck}`, ck, cf, k);
      }
    }
    return { field: '(body)', ...fill('record.alreadyThere', 'is already there', {}) };
  }

  /** An extensible resource's `udf` against the tenant's user-defined fields: cleaned in place, violations named udf.<key>. */
  async function userFieldViolations(ctx: CrudContext, input: Record<string, unknown>, before: Row | null, known?: UserFieldDef[]): Promise<Violation[]> {
    if (!r.extensible || !hooks.userFields || ctx.clientId === null) return [];
    const defs = known ?? (await hooks.userFields(ctx.tx, ctx.clientId));
    const given = input.udf === undefined ? ((before?.udf as Record<string, unknown> | undefined) ?? {}) : (input.udf as Record<string, unknown> | null);
    const { violations, value } = checkUserFieldValues(defs, given);
    input.udf = value;
    return violations;
  }

  /** All the checks; `opts.userFields` the tenant's fields when the caller read them once, `opts.validateHook`
   *  false when the caller made the validate hook's checks for all its rows at once. */
  async function checks(
    ctx: CrudContext,
    req: FastifyRequest,
    scope: Scope,
    input: Record<string, unknown>,
    before: Row | null,
    opts: { userFields?: UserFieldDef[]; validateHook?: false } = {},
  ) {
    const v: Violation[] = [
      ...(await userFieldViolations(ctx, input, before, opts.userFields)),
      ...checkAllRules(r, input),
      ...(await references(ctx.tx, req, scope, input)),
      ...(await uniques(ctx.tx, scope, ctx.clientId, input, before?.id ?? null)),
      ...((opts.validateHook === false ? [] : await hooks.validate?.(ctx, input, before)) ?? []),
    ];
    // a field the generic checks and a hook both refuse is named once (the first reason)
    const once = v.filter((x, i) => v.findIndex((y) => y.field === x.field) === i);
    if (once.length) throw new HttpError(400, INVALID_REQUEST, once);
  }
  return { checks, uniqueViolation };
}
