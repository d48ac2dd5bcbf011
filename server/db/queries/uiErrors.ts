// The UI error log (§8): uncaught console errors, readable by administrators of the client.
import type { Db } from '../db';
import { window, type ListWindow } from './list';
import { tenant } from '../tenant';

export interface UiErrorRow {
  id: number;
  user_id: number | null;
  client_id: number | null;
  message: string;
  stack: string | null;
  url: string;
  user_agent: string | null;
  at: Date | string;
}

export async function insertUiError(
  db: Db,
  e: { userId: number; clientId: number | null; message: string; stack?: string | null; url: string; userAgent?: string | null },
): Promise<number> {
  return (
    await db.query<{ id: number }>('insert into ui_errors (user_id, client_id, message, stack, url, user_agent) values ($1,$2,$3,$4,$5,$6) returning id', [
      e.userId,
      e.clientId,
      e.message,
      e.stack ?? null,
      e.url,
      e.userAgent ?? null,
    ])
  ).rows[0].id;
}
/** The client's errors, and the reader's own from before a client was selected. */
export async function listUiErrors(db: Db, clientId: number | null, userId: number, l: ListWindow): Promise<{ rows: UiErrorRow[]; total: number }> {
  const params: unknown[] = [];
  const where = `${tenant(params, clientId)} or (client_id is null and user_id = $2)`;
  params.push(userId); // $2
  const total = await db.query<{ n: string }>(`select count(*)::text n from ui_errors where ${where}`, params);
  const { rows } = await db.query<UiErrorRow>(`select * from ui_errors where ${where} ${window(l)}`, params);
  return { rows, total: Number(total.rows[0].n) };
}
