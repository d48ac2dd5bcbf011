// The OSDP readers' status and commands (server/edge/readerRoutes.ts, issue 46; issue 48: a room's SQL in the queries
// room): what a controller's edge last reported of its readers, the card readers at their bus addresses, and a reader
// moved to another address. A query by an id the caller has not checked yet names the client; the rest take a
// controller or card reader the caller already holds as the client's.
import type { EdgeReaderStatus } from '../../../contract';
import type { Db } from '../db';
import { tenant } from '../tenant';

/** Controller `controllerId`'s last report of its readers, when, and whether it has a live edge key. */
export async function reportedReaders(
  db: Db,
  controllerId: number,
): Promise<{ osdp_readers: EdgeReaderStatus[] | string | null; osdp_readers_at: Date | string | null; edge: boolean } | undefined> {
  const { rows } = await db.query<{ osdp_readers: EdgeReaderStatus[] | string | null; osdp_readers_at: Date | string | null; edge: boolean }>(
    `select e.osdp_readers, e.osdp_readers_at,
        exists (select 1 from service_accounts sa where sa.controller_id = c.id and sa.key_revoked_at is null) as edge
       from controllers c left join edge_controllers e on e.controller_id = c.id where c.id = $1`,
    [controllerId],
  );
  return rows[0];
}

/** Controller `controllerId`'s card readers with their bus addresses, oldest first. */
export async function controllerCardReaders(db: Db, controllerId: number): Promise<{ id: number; name: string; address: number }[]> {
  const { rows } = await db.query<{ id: number; name: string; address: number }>(
    'select id, name, address from card_readers where controller_id = $1 order by id',
    [controllerId],
  );
  return rows;
}

/** Controller `controllerId`'s division and when its edge last reported its readers; undefined: no such controller. */
export async function readersNoticeRow(
  db: Db,
  controllerId: number,
): Promise<{ division_id: number | null; osdp_readers_at: Date | string | null } | undefined> {
  const { rows } = await db.query<{ division_id: number | null; osdp_readers_at: Date | string | null }>(
    'select c.division_id, e.osdp_readers_at from controllers c left join edge_controllers e on e.controller_id = c.id where c.id = $1',
    [controllerId],
  );
  return rows[0];
}

/** The client's controller `id`, if it is one. */
export async function clientControllerId(db: Db, clientId: number, id: number): Promise<number | undefined> {
  const params: unknown[] = [id];
  const { rows } = await db.query<{ id: number }>(`select c.id from controllers c where c.id = $1 and ${tenant(params, clientId, 'c')}`, params);
  return rows[0] ? Number(rows[0].id) : undefined;
}

/** The client's card reader `id` with its controller and bus address, and whether that controller has a live edge key;
 *  with `withReport`, the controller's last report of its readers too. */
export async function clientCardReader(
  db: Db,
  clientId: number,
  id: number,
): Promise<{ id: number; name: string; address: number; controller_id: number; edge: boolean; osdp_readers: EdgeReaderStatus[] | string | null } | undefined> {
  const params: unknown[] = [id];
  const { rows } = await db.query<{
    id: number;
    name: string;
    address: number;
    controller_id: number;
    edge: boolean;
    osdp_readers: EdgeReaderStatus[] | string | null;
  }>(
    `select r.id, r.name, r.address, r.controller_id, e.osdp_readers,
        exists (select 1 from service_accounts sa where sa.controller_id = r.controller_id and sa.key_revoked_at is null) as edge
       from card_readers r left join edge_controllers e on e.controller_id = r.controller_id
      where r.id = $1 and ${tenant(params, clientId, 'r')}`,
    params,
  );
  return rows[0];
}

/** The client's controllers of `ids` with the bus addresses their card readers take, by name. */
export async function scanControllers(db: Db, clientId: number, ids: number[]): Promise<{ id: number; name: string; taken: number[] | null }[]> {
  if (!ids.length) return [];
  const params: unknown[] = [ids];
  const { rows } = await db.query<{ id: number; name: string; taken: number[] | null }>(
    `select c.id, c.name, array(select r.address from card_readers r where r.controller_id = c.id) as taken
       from controllers c where c.id = any($1::int[]) and ${tenant(params, clientId, 'c')} order by c.name, c.id`,
    params,
  );
  return rows;
}

/** Card reader `id` moved to bus address `address`. */
export async function moveCardReader(db: Db, id: number, address: number): Promise<void> {
  await db.query('update card_readers set address = $2, updated_at = now() where id = $1', [id, address]);
}

/** The name of another card reader than `id` at `address` on controller `controllerId`, if any. */
export async function cardReaderAt(db: Db, controllerId: number, address: number, id: number): Promise<string | undefined> {
  const { rows } = await db.query<{ name: string }>('select name from card_readers where controller_id = $1 and address = $2 and id <> $3 limit 1', [
    controllerId,
    address,
    id,
  ]);
  return rows[0]?.name;
}
