// The hardware simulator's SQL (server/simulator/*; issue 48: in the queries room): the hardware records as it reads
// them, the door and controller states it writes, the heart-beats' lists and the firmware roll-outs they move on.
import type { ElevatorMask } from '../../access/elevator';
import type { Db } from '../db';
import { inputsWithArmedZone } from './ingest';
import { tenant } from '../tenant';

export interface DoorRow {
  id: number;
  client_id: number;
  name: string;
  status: string;
  division_id?: number | null;
}
export interface ControllerRow {
  id: number;
  client_id: number;
  name: string;
  status: string;
}

// ---------- the hardware records (hardwareRows.ts, hardware.ts, devices.ts) ----------

/** Door `doorId` of `clientId` (of any tenant when null); undefined when it is not there. */
export async function simulatorDoor(db: Db, clientId: number | null, doorId: number): Promise<DoorRow | undefined> {
  const params: unknown[] = [doorId];
  const { rows } = await db.query<DoorRow>(
    `select id, client_id, name, status, division_id from doors where id = $1${clientId === null ? '' : ` and ${tenant(params, clientId)}`}`,
    params,
  );
  return rows[0];
}

/** The tenant's first door; undefined when it has none. */
export async function firstDoor(db: Db, clientId: number): Promise<DoorRow | undefined> {
  const params: unknown[] = [];
  const { rows } = await db.query<DoorRow>(`select id, client_id, name, status from doors where ${tenant(params, clientId)} order by id limit 1`, params);
  return rows[0];
}

/** Controller `controllerId` of `clientId` (the tenant's first when not given); undefined when it is not there. */
export async function simulatorController(db: Db, clientId: number, controllerId: number | undefined): Promise<ControllerRow | undefined> {
  const params: unknown[] = controllerId === undefined ? [] : [controllerId];
  const { rows } = await db.query<ControllerRow>(
    controllerId === undefined
      ? `select id, client_id, name, status from controllers where ${tenant(params, clientId)} order by id limit 1`
      : `select id, client_id, name, status from controllers where id = $1 and ${tenant(params, clientId)}`,
    params,
  );
  return rows[0];
}

export async function setDoorStatus(db: Db, doorId: number, status: string): Promise<void> {
  await db.query('update doors set status = $2 where id = $1', [doorId, status]);
}

/** The controller goes online (online since now, unless it was online already) or offline. */
export async function setControllerOnline(db: Db, controllerId: number, online: boolean): Promise<void> {
  await db.query(
    `update controllers set status = $2, online_since = case when $2 = 'online' then coalesce(case when status = 'online' then online_since end, now()) else null end where id = $1`,
    [controllerId, online ? 'online' : 'offline'],
  );
}

/** The tenant's input `inputId` with the name of the first armed alarm group holding it (null: none armed); undefined when it is not there. */
export async function inputWithArmedGroup(db: Db, clientId: number, inputId: number): Promise<{ id: number; name: string; armed: string | null } | undefined> {
  // the device interface's query, for one input (one query of armed groups, not two kept in step)
  const [row] = await inputsWithArmedZone(db, clientId, [inputId]);
  return row && { id: row.id, name: row.name, armed: row.zone };
}

export async function simulatorReader(db: Db, clientId: number, readerId: number): Promise<{ id: number; name: string; door_id: number | null } | undefined> {
  const params: unknown[] = [readerId];
  const { rows } = await db.query<{ id: number; name: string; door_id: number | null }>(
    `select id, name, door_id from card_readers where id = $1 and ${tenant(params, clientId)}`,
    params,
  );
  return rows[0];
}

/** The tenant's elevator maskings of car reader `readerId`. */
export async function elevatorMasksOf(db: Db, clientId: number, readerId: number): Promise<ElevatorMask[]> {
  const maskParams: unknown[] = [readerId];
  const { rows } = await db.query<ElevatorMask>(
    `select id, name, floors, schedule_id as "scheduleId" from elevator_masks where reader_id = $1 and ${tenant(maskParams, clientId)} order by id`,
    maskParams,
  );
  return rows;
}

export async function simulatorOutput(db: Db, clientId: number, outputId: number): Promise<{ id: number; name: string; pulse_seconds: number } | undefined> {
  const params: unknown[] = [outputId];
  const { rows } = await db.query<{ id: number; name: string; pulse_seconds: number }>(
    `select id, name, pulse_seconds from outputs where id = $1 and ${tenant(params, clientId)}`,
    params,
  );
  return rows[0];
}

// ---------- the strike and the swipes (strike.ts, swipes.ts) ----------

/** The id of the tenant's latest event at point `pointId` of one of these codes (an operator's last door command). */
export async function lastEventIdAt(db: Db, clientId: number, pointId: string, codes: readonly number[]): Promise<string | undefined> {
  const params: unknown[] = [pointId, codes];
  const { rows } = await db.query<{ id: string }>(
    `select id from events where ${tenant(params, clientId)} and event_point_id = $1 and event_code = any($2::int[])
        order by id desc limit 1`,
    params,
  );
  return rows[0]?.id;
}

/** The tenant's event `eventId` with the swipe stored with it (S: the swipe's shape; text on some engines). */
export async function storedSwipeEvent<S>(
  db: Db,
  clientId: number,
  eventId: number,
): Promise<
  { id: string; swipe: S | string | null; reason: string | null; decision: string | null; identity_id: number | null; at: Date | string } | undefined
> {
  const params: unknown[] = [eventId];
  const { rows } = await db.query<{
    id: string;
    swipe: S | string | null;
    reason: string | null;
    decision: string | null;
    identity_id: number | null;
    at: Date | string;
  }>(`select id, swipe, reason, decision, identity_id, at from events where id = $1 and ${tenant(params, clientId)}`, params);
  return rows[0];
}

// ---------- the random traffic (traffic.ts) ----------

export interface TrafficRecords {
  doors: DoorRow[];
  readers: { id: number; door_id: number; direction: 'entry' | 'exit' }[];
  inputs: { id: number; client_id: number; name: string }[];
  outputs: { id: number; client_id: number; name: string }[];
}

/**
 * Every tenant's doors, readers, inputs and outputs the random traffic may touch: not those of a Gatehouse Edge
 * controller (one with a key: issue 47), which decides their swipes and reports their events itself.
 */
export async function trafficRecords(db: Db): Promise<TrafficRecords> {
  const edge = (alias: string) =>
    `not exists (select 1 from service_accounts sa where sa.controller_id = ${alias}.controller_id and sa.key_revoked_at is null)`;
  const [doors, readers, inputs, outputs] = await Promise.all([
    db.query<DoorRow>(
      `select id, client_id, name, status from doors d where not exists (
           select 1 from (select controller_id, door_id from card_readers union all select controller_id, door_id from inputs
                          union all select controller_id, door_id from outputs) h
             join service_accounts sa on sa.controller_id = h.controller_id and sa.key_revoked_at is null where h.door_id = d.id) order by id`,
    ),
    db.query<TrafficRecords['readers'][number]>(`select id, door_id, direction from card_readers r where door_id is not null and ${edge('r')} order by id`),
    db.query<TrafficRecords['inputs'][number]>(`select id, client_id, name from inputs i where ${edge('i')} order by id`),
    db.query<TrafficRecords['outputs'][number]>(`select id, client_id, name from outputs o where ${edge('o')} order by id`),
  ]);
  return { doors: doors.rows, readers: readers.rows, inputs: inputs.rows, outputs: outputs.rows };
}

/** The tenant's controllers that are not Gatehouse Edge controllers (none with a live key). */
export async function trafficControllers(db: Db, clientId: number): Promise<ControllerRow[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<ControllerRow>(
    `select id, client_id, name, status from controllers c where ${tenant(params, clientId)}
          and not exists (select 1 from service_accounts sa where sa.controller_id = c.id and sa.key_revoked_at is null) order by id`,
    params,
  );
  return rows;
}

// ---------- heart-beats and firmware roll-outs (heartbeat.ts) ----------

/** The controllers sent firmware that have not said they started: now they have; those controllers. */
export async function startFirmware(db: Db): Promise<{ id: number; client_id: number; name: string; firmware_target: string }[]> {
  const { rows } = await db.query<{ id: number; client_id: number; name: string; firmware_target: string }>(
    `update controllers set firmware_started = true where firmware_target is not null and not firmware_started returning id, client_id, name, firmware_target`,
  );
  return rows;
}

/** The controllers that started firmware sent at least `seconds` ago now run it; those controllers. */
export async function installFirmware(db: Db, seconds: number): Promise<{ id: number; client_id: number; name: string; firmware: string }[]> {
  const { rows } = await db.query<{ id: number; client_id: number; name: string; firmware: string }>(
    `update controllers set firmware = firmware_target, firmware_target = null, firmware_sent_at = null, firmware_started = false
        where firmware_target is not null and firmware_started and firmware_sent_at <= now() - make_interval(secs => $1) returning id, client_id, name, firmware`,
    [seconds],
  );
  return rows;
}

/** The roll-outs' progress of these controllers, now running their roll-out's version: done; the roll-outs' firmware ids. */
export async function finishRolloutProgress(db: Db, controllerIds: number[]): Promise<number[]> {
  const { rows } = await db.query<{ firmware_id: number }>(
    `update firmware_rollout_progress p set state = 'done', updated_at = now()
      from controllers c, firmware_images f where c.id = any($1::int[]) and p.controller_id = c.id and f.id = p.firmware_id and f.version = c.firmware
        and p.state = 'installing' returning p.firmware_id`,
    [controllerIds],
  );
  return rows.map((d) => d.firmware_id);
}

/** These firmware images' roll-outs are done once no controller is still installing them. */
export async function finishRollouts(db: Db, firmwareIds: number[]): Promise<void> {
  await db.query(
    `update firmware_images f set rollout_state = 'done' where f.id = any($1::int[]) and f.rollout_state = 'installing'
      and not exists (select 1 from firmware_rollout_progress p where p.firmware_id = f.id and p.state = 'installing')`,
    [firmwareIds],
  );
}

/** The firmware images these controllers run (of their own clients). */
export async function imagesRunBy(db: Db, controllerIds: number[]): Promise<{ id: number; client_id: number }[]> {
  const params: unknown[] = [controllerIds];
  const { rows } = await db.query<{ id: number; client_id: number }>(
    `select distinct f.id, f.client_id from firmware_images f join controllers c on c.client_id = f.client_id and c.firmware = f.version
        where c.id = any($1::int[])`,
    params,
  );
  return rows;
}

export interface HeartbeatController extends ControllerRow {
  division_id: number | null;
  firmware_pending: boolean;
}

/** Every controller, with its division and whether firmware is pending. */
export async function heartbeatControllers(db: Db): Promise<HeartbeatController[]> {
  const { rows } = await db.query<HeartbeatController>(
    'select id, client_id, name, status, division_id, firmware_target is not null as firmware_pending from controllers order by id',
  );
  return rows;
}

/** Every door, with its status and division. */
export async function heartbeatDoors(db: Db): Promise<{ id: number; client_id: number; name: string; status: string; division_id: number | null }[]> {
  const { rows } = await db.query<{ id: number; client_id: number; name: string; status: string; division_id: number | null }>(
    'select id, client_id, name, status, division_id from doors order by id',
  );
  return rows;
}
