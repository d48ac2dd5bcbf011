// Interfaces (issue 12): one board per bus address of a controller (refused on the field otherwise), and discovery:
// the boards the (simulated) controllers find on their buses that are not added yet — each controller reports a
// reader interface at address 1 and an I/O board at address 2, and every third one an elevator board at address 3.
import type { FastifyInstance } from 'fastify';
import { PRIV, interfacesResource } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import type { Db } from '../db/db';
import { clientOf, fill } from '../http/kit';
import { controllersForDiscovery, interfaceAt, takenBusAddresses } from '../db/queries/interfaces';

export const interfaceHooks: ResourceHooks = {
  async validate(ctx, input, before) {
    if (typeof input.controllerId !== 'number' || typeof input.busAddress !== 'number') return [];
    const holder = await interfaceAt(ctx.tx, input.controllerId, input.busAddress, before?.id ?? 0);
    return holder
      ? [{ field: 'busAddress', ...fill('interface.busAddressTaken', 'is already taken on this controller (by {name})', { name: holder.name }) }]
      : [];
  },
};

export interface Discovered {
  controllerId: number;
  controllerName: string;
  busAddress: number;
  kind: 'reader' | 'io' | 'elevator';
  serialNumber: string;
}

export function interfaceDiscoveryRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get(`${interfacesResource.api}/discover`, { config: { privileges: [PRIV.interfaces.add] } }, async (req): Promise<{ items: Discovered[] }> => {
    const clientId = clientOf(req);
    const controllers = await controllersForDiscovery(db, clientId);
    const taken = await takenBusAddresses(db, clientId);
    const used = new Set(taken.map((t) => `${t.controller_id}:${t.bus_address}`));
    const items: Discovered[] = [];
    for (const c of controllers) {
      if (c.status !== 'online') continue; // an offline controller answers no discovery
      const boards: [number, Discovered['kind']][] = [[1, 'reader'], [2, 'io'], ...(c.id % 3 === 0 ? [[3, 'elevator'] as [number, Discovered['kind']]] : [])];
      for (const [address, kind] of boards) {
        if (used.has(`${c.id}:${address}`)) continue;
        items.push({
          controllerId: c.id,
          controllerName: c.name,
          busAddress: address,
          kind,
          serialNumber: `SIM-${String(c.id).padStart(4, '0')}-${String(address).padStart(2, '0')}`,
        });
      }
    }
    return { items };
  });
}
