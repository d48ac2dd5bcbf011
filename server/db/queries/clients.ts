// A client's own settings other rooms read (issue 48: in the queries room).
import type { Db } from '../db';

/** Client `clientId`'s time zone (none: no such client). */
export async function clientTimezone(db: Db, clientId: number | null): Promise<string | null | undefined> {
  const { rows } = await db.query<{ timezone: string | null }>('select timezone from clients where id = $1', [clientId]);
  return rows[0]?.timezone;
}

/** The active client whose code is `code` (any case): its id. */
export async function activeClientByCode(db: Db, code: string): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>('select id from clients where lower(code) = lower($1) and active', [code]);
  return rows[0] ? Number(rows[0].id) : null;
}
