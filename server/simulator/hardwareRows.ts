// The hardware records as the simulator reads them (server/simulator/hardware.ts): a door and a controller, looked up
// in their tenant (404 when they are not there).
import type { Db } from '../db/db';
import { fill } from '../../contract';
import { HardwareError } from '../doors/port';
import { simulatorController, simulatorDoor, type ControllerRow, type DoorRow } from '../db/queries/simulator';

export type { ControllerRow, DoorRow };

/** Door `doorId` of `clientId` (of any tenant when null). */
export async function doorOf(db: Db, clientId: number | null, doorId: number): Promise<DoorRow> {
  const row = await simulatorDoor(db, clientId, doorId);
  if (!row) throw new HardwareError(404, fill('record.notFound', '{what} not found', { what: 'Door' }));
  return row;
}

/** Controller `controllerId` of `clientId` (the tenant's first when not given). */
export async function controllerOf(db: Db, clientId: number, controllerId: number | undefined): Promise<ControllerRow> {
  const row = await simulatorController(db, clientId, controllerId);
  if (!row) throw new HardwareError(404, fill('record.notFound', '{what} not found', { what: 'Controller' }));
  return row;
}
