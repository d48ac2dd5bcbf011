// Controller diagnostics [0.5.6.4] (issue 12): a controller found by its IP address in the selected client (another
// client's, or an address nobody has, is 404) with what it reports of itself (status, firmware, online since), what
// is wired to it, when it was last heard and its latest events — its own (`iface-<id>`) and those of the doors,
// readers, inputs and outputs wired to it. Ping asks it to answer: the simulated controller answers while online.
import type { FastifyInstance } from 'fastify';
import { ControllerDiagnostic, ControllerHubRow, IPV4, PRIV, PingAnswer, controllersResource } from '../../contract';
import type { Db } from '../db/db';
import { eventOfRow } from '../monitor/pipeline';
import { HttpError, fill, clientOf, INVALID_REQUEST } from './kit';
import { iso } from '../db/values';
import { controllerByAddress, controllerHubRows, controllerWiring, latestEventsOf } from '../db/queries/diagnostics';
import { array, type } from 'superstruct';
import type { RouteDoc } from '../openapi/declared';

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  one: { response: ControllerDiagnostic, summary: "A controller's diagnostics" },
  hub: { response: type({ items: array(ControllerHubRow) }) },
  ping: { response: PingAnswer },
} satisfies Record<string, RouteDoc>;

const base = `${controllersResource.api}/diagnostic/:ipAddress`;

async function controllerAt(db: Db, clientId: number, ip: unknown) {
  if (typeof ip !== 'string' || !IPV4.test(ip))
    throw new HttpError(400, INVALID_REQUEST, [
      { field: 'ipAddress', ...fill('diagnostics.notIpv4', 'is not in the expected form: IPv4, e.g. 10.1.0.11', {}) },
    ]);
  const c = await controllerByAddress(db, clientId, ip);
  if (!c) throw new HttpError(404, fill('diagnostics.noControllerAt', 'No controller at {ip}', { ip }));
  return c;
}

export function diagnosticRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get(base, { config: { privileges: [PRIV.controllers.diagnostics], touches: 'client', ...DOCS.one } }, async (req): Promise<ControllerDiagnostic> => {
    const clientId = clientOf(req);
    const c = await controllerAt(db, clientId, (req.params as { ipAddress?: unknown }).ipAddress);
    const w = await controllerWiring(db, c.id);
    const sources = [
      `iface-${c.id}`,
      ...w.door_ids.flatMap((d) => [`door-${d}`, `reader-${d}`, `input-${d}`, `output-${d}`]),
      ...w.input_ids.map((i) => `in-${i}`),
      ...w.output_ids.map((o) => `out-${o}`),
    ];
    const rows = await latestEventsOf(db, clientId, sources);
    const events = rows.map(eventOfRow);
    return {
      controller: {
        id: c.id,
        name: c.name,
        ipAddress: c.ip_address,
        status: c.status,
        firmware: c.firmware,
        onlineSince: iso(c.online_since),
        divisionName: c.division_name,
      },
      wiring: { doors: w.doors, readers: w.readers, inputs: w.inputs, outputs: w.outputs },
      lastHeardAt: events[0]?.time ?? null,
      events,
    };
  });

  // the hub [0.5.7.0]: every controller of the client at a glance (the console lays the live heart-beats over it)
  app.get(`${controllersResource.api}/hub`, { config: { privileges: ['0.5.7.0'], ...DOCS.hub } }, async (req): Promise<{ items: ControllerHubRow[] }> => {
    const clientId = clientOf(req);
    const rows = await controllerHubRows(db, clientId);
    return {
      items: rows.map((c) => ({
        id: c.id,
        name: c.name,
        ipAddress: c.ip_address,
        status: c.status,
        firmware: c.firmware,
        onlineSince: iso(c.online_since),
        divisionName: c.division_name,
        doors: c.doors,
        readers: c.readers,
        inputs: c.inputs,
        outputs: c.outputs,
        interfaces: c.interfaces,
      })),
    };
  });

  app.post(`${base}/ping`, { config: { privileges: [PRIV.controllers.diagnostics], touches: 'client', ...DOCS.ping } }, async (req): Promise<PingAnswer> => {
    const clientId = clientOf(req);
    const started = performance.now();
    const c = await controllerAt(db, clientId, (req.params as { ipAddress?: unknown }).ipAddress);
    const at = new Date().toISOString();
    // the simulated controller answers while it is online; the time is the round trip to it (its record)
    return c.status === 'online' ? { reachable: true, ms: Math.max(1, Math.round(performance.now() - started)), at } : { reachable: false, ms: null, at };
  });
}
