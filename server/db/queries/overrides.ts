// Overrides at the doors (issue 12): the starts and ends due now, claimed and marked in one transaction so each
// happens once, on one server (`for update skip locked`), and a door's own mode with the override still holding it.
import type { Db } from '../db';

export interface DueOverride {
  id: number;
  client_id: number;
  name: string;
  mode: string;
  started: boolean;
  door_ids: number[];
}

/** The overrides that end and those that start now, marked applied as they are claimed. */
export async function claimDueOverrides(db: Db): Promise<{ starts: DueOverride[]; ends: DueOverride[] }> {
  return db.transaction(async (tx) => {
    const pick = async (where: string) =>
      (
        await tx.query<DueOverride>(
          `select o.id, o.client_id, o.name, o.mode, o.applied_start_at is not null as started,
              coalesce((select array_agg(d.door_id order by d.door_id) from door_override_doors d where d.override_id = o.id), '{}') as door_ids
         from door_overrides o where ${where} order by o.starts_at, o.id for update of o skip locked`,
        )
      ).rows;
    const ends = await pick('o.applied_end_at is null and o.ends_at <= now()');
    const starts = await pick('o.applied_start_at is null and o.starts_at <= now() and o.ends_at > now()');
    if (ends.length)
      await tx.query('update door_overrides set applied_end_at = now(), applied_start_at = coalesce(applied_start_at, now()) where id = any($1::int[])', [
        ends.map((e) => e.id),
      ]);
    if (starts.length) await tx.query('update door_overrides set applied_start_at = now() where id = any($1::int[])', [starts.map((e) => e.id)]);
    return { starts, ends };
  });
}

/** The door's own mode and the mode of another override in force that still holds it (null: none). */
export async function doorModeAndHold(db: Db, doorId: number, except: number): Promise<{ mode: string; held: string | null } | undefined> {
  const { rows } = await db.query<{ mode: string; held: string | null }>(
    `select d.mode, (select o.mode from door_overrides o join door_override_doors x on x.override_id = o.id
                      where x.door_id = d.id and o.id <> $2 and o.starts_at <= now() and o.ends_at > now()
                      order by o.starts_at desc, o.id desc limit 1) as held
       from doors d where d.id = $1`,
    [doorId, except],
  );
  return rows[0];
}

/** Override `id` starts afresh (a new window after it ended): its start and end not applied yet. */
export async function rearmOverride(db: Db, id: number): Promise<void> {
  await db.query('update door_overrides set applied_start_at = null, applied_end_at = null where id = $1', [id]);
}

/** The first of overrides `ids` in force now (its name and end), none when none is. */
export async function overrideInForce(db: Db, ids: number[]): Promise<{ name: string; ends: string } | undefined> {
  const { rows } = await db.query<{ name: string; ends: string }>(
    `select name, ends_at::text as ends from door_overrides where id = any($1::int[]) and starts_at <= now() and ends_at > now() order by id limit 1`,
    [ids],
  );
  return rows[0];
}
