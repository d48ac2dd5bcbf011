// Identities (server/resources/identities.ts; issue 48: its query in the queries room): how many the client has in a
// scope, from the per-division counts kept as rows change (migration 100).
import type { Db } from '../db';
import { tenant } from '../tenant';

/** The client's identities in `divisions` (all of them when null). */
export async function identityCount(db: Db, clientId: number | null, divisions: number[] | null | undefined): Promise<number> {
  const params: unknown[] = [];
  const where = tenant(params, clientId) + (divisions ? ` and division_id = any($${params.push(divisions)}::int[])` : '');
  const { rows } = await db.query<{ n: string }>(`select coalesce(sum(identities), 0)::text n from division_counts where ${where}`, params);
  return Number(rows[0].n);
}
