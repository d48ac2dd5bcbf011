// Gatehouse Edge on the server (issue 47, docs/EDGE.md): the edge controllers' connections on the server's port
// (hub.ts), their events through the device interface (ingest.ts) and their keys (keys.ts, the controllers' actions).
import type { FastifyInstance } from 'fastify';
import { DESTINATIONS } from '../../contract';
import type { Db } from '../db/db';
import type { HardwarePort } from '../doors/port';
import type { Pipeline, Publish } from '../monitor/pipeline';
import { routeDoorCommands } from './commands';
import { edgeReaderRoutes, readersNotice } from './readerRoutes';
import { createEdgeHub } from './hub';
import { createEdgeIngest } from './ingest';

/** Change notices after which a client's edge controllers' keys and snapshots are looked at again (a key revoked,
 *  rotated or its account disabled is dropped at once; readers moved to or from a controller change its doors). */
const EDGE_CHANGES = [
  '/changes/controllers',
  '/changes/cardReaders',
  '/changes/inputs',
  '/changes/outputs',
  '/changes/serviceAccounts',
  '/changes/centralProperties', // the client's maxOfflineDays
];

/** The edge hub of each server (tests read what its snapshot cutters did: EdgeHub.connected). */
export const edgeHubOf = new WeakMap<object, ReturnType<typeof createEdgeHub>>();

export function attachEdge(app: FastifyInstance, opts: { db: Db; hardware: HardwarePort; pipeline: Pipeline; publish: Publish }) {
  const hub = createEdgeHub({
    db: opts.db,
    access: opts.hardware.access,
    pipeline: opts.pipeline,
    log: (m) => app.log.warn(m),
    readersChanged: (clientId, controllerId) => tellReaders(clientId, controllerId),
  });
  function tellReaders(clientId: number, controllerId: number) {
    void readersNotice(opts.db, hub, controllerId)
      .then((n) => n && opts.publish(clientId, DESTINATIONS.osdpReaders, n.body, { division: n.division }))
      .catch((e) => app.log.warn(`edge controller ${controllerId}: OSDP readers notice not sent: ${e}`));
  }
  edgeHubOf.set(app, hub);
  hub.attach(app.server);
  // dropped before the server stops taking connections (preClose): the HTTP server's close waits for every connection,
  // and an edge's link never ends by itself (a server stopped for an upgrade hung, and its edges held on to it)
  app.addHook('preClose', async () => hub.close());
  const ingest = createEdgeIngest(opts.db);
  // the door commands of an edge controller's doors go to its edge over the link (commands.ts)
  routeDoorCommands(opts.hardware, { db: opts.db, hub, ingest });
  // the OSDP readers' status and their re-pairing (readerRoutes.ts)
  void app.register(edgeReaderRoutes, { db: opts.db, hub, publish: opts.publish });
  return {
    hub,
    ingest,
    /** The catalogue's change notices (server/app.ts publishChange), heard by the edge controllers' hub first. */
    hearing<F extends (clientId: number, destination: string, body: unknown) => void>(publishChange: F): F {
      return ((clientId: number, destination: string, body: unknown) => {
        if (EDGE_CHANGES.includes(destination)) hub.changed(clientId);
        publishChange(clientId, destination, body);
        // a key issued or revoked makes the controller an edge controller or not: its OSDP readers' panel reads again
        const change = body as { id?: unknown; action?: unknown } | null;
        if (destination === '/changes/controllers' && typeof change?.id === 'number' && String(change.action).includes('edge-key'))
          tellReaders(clientId, change.id);
      }) as F;
    },
  };
}
