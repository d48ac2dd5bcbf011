// Where an input or output is wired (issue 47, server/resources/boardPoints.ts): the board it names, and the output
// that holds a board's point already. Every query names the client (server/db/tenant.ts).
import type { Db } from '../db';
import { tenant } from '../tenant';

/** The client's board (interface) `boardId`: its controller, kind and name (none: not the client's). */
export async function boardOf(db: Db, clientId: number, boardId: number): Promise<{ controllerId: number; kind: string; name: string } | undefined> {
  const params: unknown[] = [boardId];
  const { rows } = await db.query<{ controller_id: number; kind: string; name: string }>(
    `select controller_id, kind, name from interfaces where id = $1 and ${tenant(params, clientId)}`,
    params,
  );
  return rows[0] && { controllerId: Number(rows[0].controller_id), kind: rows[0].kind, name: rows[0].name };
}

/** The output other than `exceptId` wired to point `point` of board `boardId` (none: the point is free). */
export async function outputAtPoint(db: Db, clientId: number, boardId: number, point: number, exceptId: number): Promise<{ name: string } | undefined> {
  const params: unknown[] = [boardId, point, exceptId];
  const { rows } = await db.query<{ name: string }>(
    `select name from outputs where board_id = $1 and point = $2 and id <> $3 and ${tenant(params, clientId)} limit 1`,
    params,
  );
  return rows[0];
}
