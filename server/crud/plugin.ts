// The one CRUD plugin every catalogue resource is served by: list (page, size, sort, q, filters), get, create,
// update, delete, bulk delete, an options endpoint for pickers, a streamed CSV / NDJSON export and named actions.
// Applied here once, never per handler: the privilege of each action, tenant scope (another tenant's id is 404),
// division scope (the user's grants for that action's code), references visible in the same scope, unique values
// (a pre-check, and the constraint as the truth: 23505 becomes a violation on the field), a delete of a row still
// referenced refused with 409 naming what uses it, optimistic concurrency (a stale updatedAt is 409), the
// before/after audit row in the same transaction, and a change notice per tenant after the commit.
// This file only wires them; each operation is a file of this folder: context.ts (what every operation shares:
// scope, touches, audit view, notices; rows.ts reads rows, where.ts builds a list's WHERE), list.ts (list and
// options), read.ts, write.ts (create and update; checks.ts the checks a schema cannot make), delete.ts, export.ts
// and actions.ts.
import type { FastifyInstance } from 'fastify';
import { CATALOGUE, inputSchema, rowSchema, type ResourceDeclaration } from '../../contract';
import { actionRoutes } from './actions';
import { crudResource, type CrudOptions } from './context';
import { deleteRoutes } from './delete';
import { exportRoutes } from './export';
import { listRoutes, optionsRoutes } from './list';
import { readRoutes } from './read';
import { writeRoutes } from './write';

export { optionCodesOf, type CrudOptions } from './context';
export { EXPORT_PAGE } from './export';
export { SEARCH_WINDOW_PER_ROW } from './list';

export function registerResource(app: FastifyInstance, r: ResourceDeclaration<any>, opts: CrudOptions) {
  const crud = crudResource(r, opts);
  // registered in the order the one plugin function registered them (Fastify answers the first route that matches)
  listRoutes(app, crud);
  optionsRoutes(app, crud);
  exportRoutes(app, crud);
  readRoutes(app, crud);
  writeRoutes(app, crud);
  deleteRoutes(app, crud);
  actionRoutes(app, crud);
  return { sql: crud.sql, Input: inputSchema(r), Row: rowSchema(r), ListQuery: crud.ListQuery };
}

/** Registers every catalogue resource that is served by the plugin. */
export function crudRoutes(app: FastifyInstance, opts: CrudOptions) {
  for (const r of CATALOGUE) if (r.routes !== false) registerResource(app, r, opts);
}
