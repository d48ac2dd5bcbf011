// Who is inside which access zone (issue 12), in the database (migration 094): the engine decides from the copy in
// memory, loaded per tenant on first use, and each granted swipe or Forgive writes through before its event is
// recorded. At a swipe the identity's own row is read again, so a second server (or one restarted) decides
// anti-passback from what any server last let that person do, not from an empty memory.
import type { Db } from '../db';
import { tenant } from '../tenant';

export interface Presence {
  zoneId: number | null;
  at: number;
}

const toPresence = (r: { zone_id: number | null; at: Date | string }): Presence => ({
  zoneId: r.zone_id === null ? null : Number(r.zone_id),
  at: new Date(r.at).getTime(),
});

/** Every row of a tenant: identity → where it was last let in. */
export async function loadPresence(db: Db, clientId: number): Promise<Map<number, Presence>> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ identity_id: number; zone_id: number | null; at: Date | string }>(
    `select identity_id, zone_id, at from zone_presence where ${tenant(params, clientId)}`,
    params,
  );
  return new Map(rows.map((r) => [Number(r.identity_id), toPresence(r)]));
}

/** One identity's row (undefined: nowhere, or forgiven). */
export async function presenceOf(db: Db, clientId: number, identityId: number): Promise<Presence | undefined> {
  const params: unknown[] = [identityId];
  const { rows } = await db.query<{ zone_id: number | null; at: Date | string }>(
    `select zone_id, at from zone_presence where identity_id = $1 and ${tenant(params, clientId)}`,
    params,
  );
  return rows[0] ? toPresence(rows[0]) : undefined;
}

/** Where a granted swipe let the identity in (null zone: out of every zone). */
export async function savePresence(db: Db, clientId: number, identityId: number, p: Presence): Promise<void> {
  await db.query(
    `insert into zone_presence (identity_id, client_id, zone_id, at) values ($1, $2, $3, $4)
    on conflict (identity_id) do update set zone_id = excluded.zone_id, at = excluded.at`,
    [identityId, clientId, p.zoneId, new Date(p.at).toISOString()],
  );
}

/** Forgive: the identity's history is dropped (true when there was one). */
export async function dropPresence(db: Db, clientId: number, identityId?: number): Promise<boolean> {
  const params: unknown[] = identityId === undefined ? [] : [identityId];
  const r =
    identityId === undefined
      ? await db.query(`delete from zone_presence where ${tenant(params, clientId)} returning identity_id`, params)
      : await db.query(`delete from zone_presence where identity_id = $1 and ${tenant(params, clientId)} returning identity_id`, params);
  return r.rows.length > 0;
}

/** Occupancy: how many are inside each zone of the tenant. */
export async function zoneCounts(db: Db, clientId: number): Promise<Map<number, number>> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ zone_id: number; n: string }>(
    `select zone_id, count(*)::text as n from zone_presence where ${tenant(params, clientId)} and zone_id is not null group by zone_id`,
    params,
  );
  return new Map(rows.map((r) => [Number(r.zone_id), Number(r.n)]));
}

/** The muster list of one zone: who is inside and since when, by name. */
export async function zoneOccupants(db: Db, clientId: number, zoneId: number): Promise<{ identityId: number; name: string; since: string }[]> {
  const params: unknown[] = [zoneId];
  const { rows } = await db.query<{ identity_id: number; name: string; at: Date | string }>(
    `select p.identity_id, i.first_name || ' ' || i.last_name as name, p.at from zone_presence p join identities i on i.id = p.identity_id
      where p.zone_id = $1 and ${tenant(params, clientId, 'p')} order by name, p.identity_id`,
    params,
  );
  return rows.map((r) => ({ identityId: Number(r.identity_id), name: r.name, since: new Date(r.at).toISOString() }));
}
