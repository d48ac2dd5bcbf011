// Firmware roll-outs (server/resources/firmware.ts; issue 48: its queries in the queries room): the controllers chosen
// for an image, the per-controller progress (the version each ran before), what a controller is sent, and the image's
// roll-out state.
import type { Db } from '../db';
import { tenant } from '../tenant';

/** The client's controllers chosen on image `firmwareId`'s page (those since deleted are not there). */
export async function rolloutControllers(db: Db, clientId: number | null, firmwareId: number): Promise<{ id: number }[]> {
  const params: unknown[] = [firmwareId];
  const { rows } = await db.query<{ id: number }>(
    `select c.id from firmware_rollouts r join controllers c on c.id = r.controller_id and ${tenant(params, clientId, 'c')} where r.firmware_id = $1`,
    params,
  );
  return rows;
}

/** Marks image `firmwareId` installing on `controllerIds`, keeping the version each ran before (from an earlier roll-out that reached it);
 *  written in id order (docs/ARCHITECTURE.md, lock order). */
export async function startRolloutProgress(db: Db, firmwareId: number, controllerIds: number[]): Promise<void> {
  await db.query(
    `insert into firmware_rollout_progress (firmware_id, controller_id, previous_version, state)
            select $1, c.id, c.firmware, 'installing' from controllers c where c.id = any($2::int[]) order by c.id
          on conflict (firmware_id, controller_id) do update set state = 'installing', updated_at = now(),
            previous_version = case when firmware_rollout_progress.state = 'done' then firmware_rollout_progress.previous_version else excluded.previous_version end`,
    [firmwareId, controllerIds],
  );
}

/** Sends `version` to every controller of `controllerIds` (each installs it on its own time). */
export async function sendFirmware(db: Db, controllerIds: number[], version: unknown): Promise<void> {
  await db.query(`update controllers set firmware_target = $2, firmware_sent_at = now(), firmware_started = false where id = any($1::int[])`, [
    controllerIds,
    version,
  ]);
}

/** Sends `version` to controller `controllerId`. */
export async function sendFirmwareTo(db: Db, controllerId: number, version: string | null): Promise<void> {
  await db.query(`update controllers set firmware_target = $2, firmware_sent_at = now(), firmware_started = false where id = $1`, [controllerId, version]);
}

/** The image's roll-out state, one of the fixed words. */
export async function setRolloutState(db: Db, firmwareId: number, state: 'installing' | 'cancelled' | 'rolledBack'): Promise<void> {
  await db.query(`update firmware_images set rollout_state = '${state}' where id = $1`, [firmwareId]);
}

/** Cancels image `firmwareId` where it is still installing: those controllers. */
export async function cancelRolloutProgress(db: Db, firmwareId: number): Promise<{ controller_id: number }[]> {
  const { rows } = await db.query<{ controller_id: number }>(
    `update firmware_rollout_progress set state = 'cancelled', updated_at = now() where firmware_id = $1 and state = 'installing' returning controller_id`,
    [firmwareId],
  );
  return rows;
}

/** Takes `version` back from the controllers of `controllerIds` that have not installed it yet (they keep what they run). */
export async function withdrawFirmware(db: Db, controllerIds: number[], version: unknown): Promise<void> {
  await db.query(
    `update controllers set firmware_target = null, firmware_sent_at = null, firmware_started = false
          where id = any($1::int[]) and firmware_target = $2`,
    [controllerIds, version],
  );
}

/** The controllers that installed image `firmwareId`, with the version each ran before. */
export async function installedRollout(db: Db, firmwareId: number): Promise<{ controller_id: number; previous_version: string | null }[]> {
  const { rows } = await db.query<{ controller_id: number; previous_version: string | null }>(
    `select controller_id, previous_version from firmware_rollout_progress where firmware_id = $1 and state = 'done' and previous_version is not null`,
    [firmwareId],
  );
  return rows;
}

/** Marks image `firmwareId` rolled back on `controllerIds`. */
export async function rolledBackProgress(db: Db, firmwareId: number, controllerIds: number[]): Promise<void> {
  await db.query(`update firmware_rollout_progress set state = 'rolledBack', updated_at = now() where firmware_id = $1 and controller_id = any($2::int[])`, [
    firmwareId,
    controllerIds,
  ]);
}
