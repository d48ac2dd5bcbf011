// Interfaces (server/resources/interfaces.ts; issue 48: its queries in the queries room): who holds a bus address of
// a controller, and what discovery compares (the client's controllers, the addresses taken).
import type { Db } from '../db';
import { tenant } from '../tenant';

/** The interface other than `exceptId` on controller `controllerId`'s bus address `busAddress` (none: free). */
export async function interfaceAt(db: Db, controllerId: number, busAddress: number, exceptId: number): Promise<{ name: string } | undefined> {
  const { rows } = await db.query<{ name: string }>('select name from interfaces where controller_id = $1 and bus_address = $2 and id <> $3', [
    controllerId,
    busAddress,
    exceptId,
  ]);
  return rows[0];
}

/** The client's controllers by name, with their status. */
export async function controllersForDiscovery(db: Db, clientId: number): Promise<{ id: number; name: string; status: string }[]> {
  const ofControllers: unknown[] = [];
  const { rows } = await db.query<{ id: number; name: string; status: string }>(
    `select id, name, status from controllers where ${tenant(ofControllers, clientId)} order by name, id`,
    ofControllers,
  );
  return rows;
}

/** The bus addresses taken on the client's controllers. */
export async function takenBusAddresses(db: Db, clientId: number): Promise<{ controller_id: number; bus_address: number }[]> {
  const ofInterfaces: unknown[] = [];
  const { rows } = await db.query<{ controller_id: number; bus_address: number }>(
    `select controller_id, bus_address from interfaces where ${tenant(ofInterfaces, clientId)}`,
    ofInterfaces,
  );
  return rows;
}
