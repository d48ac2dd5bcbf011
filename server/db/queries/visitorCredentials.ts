// Visitor credentials' batch add (server/resources/visitorCredentials.ts; issue 48: its query in the queries room).
import type { Db } from '../db';

/**
 * Adds `numbers` (in order) as the client's available visitor credentials of `kind` in one statement: those it added
 * (a number already in use is skipped, the unique index deciding, even against a batch written at the same moment).
 */
export async function insertVisitorCredentials(db: Db, clientId: number, numbers: string[], kind: unknown): Promise<{ id: number; number: string }[]> {
  const inserted = await db.query<{ id: number; number: string }>(
    `insert into visitor_credentials (client_id, number, kind, state)
        select $1, n, $3, 'available' from unnest($2::text[]) with ordinality as x(n, i) order by i
        on conflict (client_id, number) do nothing returning id, number`,
    [clientId, numbers, kind],
  );
  return inserted.rows;
}
