// The hardware records as the simulator reads them (server/simulator/hardware.ts): a door and a controller, looked up
// in their tenant (404 when they are not there).
import type { Db } from '../db/db';
import { HardwareError } from '../doors/port';
import { tenant } from '../db/tenant';

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

/** Door `doorId` of `clientId` (of any tenant when null). */
export async function doorOf(db: Db, clientId: number | null, doorId: number): Promise<DoorRow> {
  const params: unknown[] = [doorId];
  const { rows } = await db.query<DoorRow>(
    `select id, client_id, name, status, division_id from doors where id = $1${clientId === null ? '' : ` and ${tenant(params, clientId)}`}`,
    params,
  );
  if (!rows[0]) throw new HardwareError(404, 'Door not found');
  return rows[0];
}

/** Controller `controllerId` of `clientId` (the tenant's first when not given). */
export async function controllerOf(db: Db, clientId: number, controllerId: number | undefined): Promise<ControllerRow> {
  const params: unknown[] = controllerId === undefined ? [] : [controllerId];
  const { rows } = await db.query<ControllerRow>(
    controllerId === undefined
      ? `select id, client_id, name, status from controllers where ${tenant(params, clientId)} order by id limit 1`
      : `select id, client_id, name, status from controllers where id = $1 and ${tenant(params, clientId)}`,
    params,
  );
  if (!rows[0]) throw new HardwareError(404, 'Controller not found');
  return rows[0];
}
