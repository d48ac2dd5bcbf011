// The access room's fixed queries (server/access/routes.ts, qrPublisher.ts; issue 48: in the queries room); what the
// access index reads is in ./accessIndex.ts.
import type { Db } from '../db';
import { tenant } from '../tenant';

/** The doors that show a dynamic QR code (all clients', or door `doorId` alone), with their secrets. */
export async function qrDoors(db: Db, doorId?: number): Promise<{ id: number; client_id: number; qr_secret: string }[]> {
  const { rows } = await db.query<{ id: number; client_id: number; qr_secret: string }>(
    doorId === undefined
      ? 'select id, client_id, qr_secret from doors where qr_secret is not null order by id'
      : 'select id, client_id, qr_secret from doors where qr_secret is not null and id = $1',
    doorId === undefined ? [] : [doorId],
  );
  return rows;
}

/** The client's access zone `id`; undefined when it has none of that id. */
export async function accessZone(db: Db, clientId: number, id: number): Promise<{ id: number; name: string; anti_passback: string } | undefined> {
  const params: unknown[] = [id];
  const { rows } = await db.query<{ id: number; name: string; anti_passback: string }>(
    `select id, name, anti_passback from access_zones where id = $1 and ${tenant(params, clientId)}`,
    params,
  );
  return rows[0];
}

/** The client's special dates (holidays and the like). */
export async function specialDates(db: Db, clientId: number): Promise<{ id: number; date: string; yearly: boolean; kind: string; name: string }[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ id: number; date: string; yearly: boolean; kind: string; name: string }>(
    `select id, date::text, yearly, kind, name from special_dates where ${tenant(params, clientId)}`,
    params,
  );
  return rows;
}
