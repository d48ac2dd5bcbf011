// Threat levels in force (issue 12): the client's configured levels, the level in force (one row per client, with
// its site, who set it and until when), putting one in force or lowering it, the doors a locking level covers, and the
// expired rows the revert clock deletes (one server wins each delete).
import type { Db } from '../db';
import { tenant } from '../tenant';

export interface ThreatStateRow {
  level_id: number;
  name: string;
  rank: number;
  mode: string;
  division_id: number | null;
  division_name: string | null;
  set_at: unknown;
  set_by: string;
  set_by_name: string | null;
  until: unknown;
}

/** The level in force for the client (none, or one whose time ran out: undefined). */
export async function threatInForce(db: Db, clientId: number): Promise<ThreatStateRow | undefined> {
  const params: unknown[] = [];
  const { rows } = await db.query<ThreatStateRow>(
    `select s.level_id, l.name, l.rank, l.mode, s.division_id, d.name as division_name, s.set_at, s.set_by, u.name as set_by_name, s.until
       from threat_level_state s join threat_levels l on l.id = s.level_id left join divisions d on d.id = s.division_id
       left join users u on u.username = s.set_by
      where ${tenant(params, clientId, 's')} and (s.until is null or s.until > now())`,
    params,
  );
  return rows[0];
}

export async function threatLevelsOf(db: Db, clientId: number): Promise<{ id: number; name: string; rank: number; mode: string }[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ id: number; name: string; rank: number; mode: string }>(
    `select id, name, rank, mode from threat_levels where ${tenant(params, clientId)} order by rank, id`,
    params,
  );
  return rows;
}

export async function threatLevel(db: Db, clientId: number, levelId: number): Promise<{ id: number; name: string; mode: string } | undefined> {
  const params: unknown[] = [levelId];
  const { rows } = await db.query<{ id: number; name: string; mode: string }>(
    `select id, name, mode from threat_levels where id = $1 and ${tenant(params, clientId)}`,
    params,
  );
  return rows[0];
}

export async function putThreatInForce(
  db: Db,
  s: { clientId: number; levelId: number; divisionId: number | null; setBy: string; until: string | null },
): Promise<void> {
  await db.query(
    `insert into threat_level_state (client_id, level_id, division_id, set_at, set_by, until) values ($1, $2, $3, now(), $4, $5)
    on conflict (client_id) do update set level_id = excluded.level_id, division_id = excluded.division_id, set_at = excluded.set_at, set_by = excluded.set_by, until = excluded.until`,
    [s.clientId, s.levelId, s.divisionId, s.setBy, s.until],
  );
}

export async function lowerThreat(db: Db, clientId: number): Promise<void> {
  const params: unknown[] = [];
  await db.query(`delete from threat_level_state where ${tenant(params, clientId)}`, params);
}

/** The client's doors not locked down, in the site's divisions (null: all). */
export async function doorsToHold(db: Db, clientId: number, site: number[] | null): Promise<{ id: number; name: string }[]> {
  const params: unknown[] = [site];
  const { rows } = await db.query<{ id: number; name: string }>(
    `select id, name from doors where ${tenant(params, clientId)} and mode <> 'locked-down' and ($1::int[] is null or division_id = any($1::int[])) order by id`,
    params,
  );
  return rows;
}

/** Deletes the levels whose time ran out, every client's, and answers what they were. */
export async function deleteExpiredThreats(db: Db): Promise<{ client_id: number; level_id: number; name: string; division_id: number | null }[]> {
  const { rows } = await db.query<{ client_id: number; level_id: number; name: string; division_id: number | null }>(
    `delete from threat_level_state s using threat_levels l where l.id = s.level_id and s.until is not null and s.until <= now()
     returning s.client_id, s.level_id, l.name, s.division_id`,
  );
  return rows;
}
