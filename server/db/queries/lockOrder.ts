// Lock order (docs/ARCHITECTURE.md): a statement that writes several existing rows in the order of its input (a multi-row
// `insert ... on conflict do update` fed by arrays) takes its rows through inLockOrder, so that two transactions at once
// naming the same rows lock them in one order and neither waits for the other in a circle (PostgreSQL refuses one of
// them as a deadlock). An `update ... from unnest(...)` or `delete ... using unnest(...)` locks its rows in the order
// of its plan: it locks them first by a `select ... order by <key> for update` in the same function instead.
// server/db/lockOrderRule.test.ts holds every such statement of server/db/queries to one of the two.

/** `rows` sorted by the key of the row each one writes (a number, a text, or a list of them compared in turn). */
export function inLockOrder<T>(rows: Iterable<T>, key: (row: T) => number | string | (number | string)[]): T[] {
  const keyed = [...rows].map((row) => ({ row, k: [key(row)].flat() }));
  keyed.sort((a, b) => {
    for (let i = 0; i < a.k.length; i++) if (a.k[i] !== b.k[i]) return a.k[i] < b.k[i] ? -1 : 1;
    return 0;
  });
  return keyed.map((x) => x.row);
}
