// The tenant condition of a query, applied by one helper instead of written by hand: the client's id goes into the
// query's parameters and the condition names it by its place (`client_id = $3`), so a query built piece by piece
// (server/crud/sql.ts) and a fixed one alike say "this tenant's rows" the same way.

/**
 * Pushes `clientId` onto `params` and answers the condition on its column: `client_id = $n`, or `x.client_id = $n`
 * with an alias. The id is always a parameter, never text of the query.
 */
export function tenant(params: unknown[], clientId: number | null, alias?: string): string {
  params.push(clientId);
  return `${alias ? `${alias}.` : ''}client_id = $${params.length}`;
}

/**
 * The tenant condition of a query that names the client more than once (several tables, sub-queries): pushes
 * `clientId` once and answers the condition on any alias, every time by that one parameter (`a.client_id = $1`,
 * `e.client_id = $1`).
 */
export function tenantOf(params: unknown[], clientId: number | null): (alias?: string) => string {
  const n = params.push(clientId);
  return (alias?: string) => `${alias ? `${alias}.` : ''}client_id = $${n}`;
}
