// Controller diagnostics [0.5.6.4] (issue 12): a controller found by its IP address in the selected client (another
// client's, or an address nobody has, is 404) with what it reports of itself (status, firmware, online since), what
// is wired to it, when it was last heard and its latest events — its own (`iface-<id>`) and those of the doors,
// readers, inputs and outputs wired to it. Ping asks it to answer: the simulated controller answers while online.
import type { FastifyInstance } from 'fastify';
import { ControllerDiagnostic, ControllerHubRow, IPV4, PATTERN_PREFIX, PRIV, PingAnswer, controllersResource } from '../../contract';
import type { Db } from '../db/db';
import { eventOfRow } from '../monitor/pipeline';
import { HttpError, fill, clientOf } from './kit';
import { iso } from '../db/values';
import { tenant } from '../db/tenant';
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
    throw new HttpError(400, 'Validation failed', [{ field: 'ipAddress', message: `${PATTERN_PREFIX}IPv4, e.g. 10.1.0.11` }]);
  const params: unknown[] = [ip];
  const {
    rows: [c],
  } = await db.query<{
    id: number;
    name: string;
    ip_address: string;
    status: string;
    firmware: string | null;
    online_since: unknown;
    division_name: string | null;
  }>(
    `select c.id, c.name, c.ip_address, c.status, c.firmware, c.online_since, v.name as division_name
       from controllers c left join divisions v on v.id = c.division_id where c.ip_address = $1 and ${tenant(params, clientId, 'c')} order by c.id limit 1`,
    params,
  );
  if (!c) throw new HttpError(404, fill('diagnostics.noControllerAt', 'No controller at {ip}', { ip }));
  return c;
}

export function diagnosticRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get(base, { config: { privileges: [PRIV.controllers.diagnostics], touches: 'client', ...DOCS.one } }, async (req): Promise<ControllerDiagnostic> => {
    const clientId = clientOf(req);
    const c = await controllerAt(db, clientId, (req.params as { ipAddress?: unknown }).ipAddress);
    const {
      rows: [w],
    } = await db.query<{ doors: number; readers: number; inputs: number; outputs: number; door_ids: number[]; input_ids: number[]; output_ids: number[] }>(
      `select (select count(distinct door_id)::int from (select door_id from card_readers where controller_id = $1 union select door_id from inputs where controller_id = $1
                union select door_id from outputs where controller_id = $1) d where door_id is not null) as doors,
              (select count(*)::int from card_readers where controller_id = $1) as readers,
              (select count(*)::int from inputs where controller_id = $1) as inputs,
              (select count(*)::int from outputs where controller_id = $1) as outputs,
              coalesce((select array_agg(distinct door_id) from (select door_id from card_readers where controller_id = $1 union select door_id from inputs where controller_id = $1
                union select door_id from outputs where controller_id = $1) d where door_id is not null), '{}') as door_ids,
              coalesce((select array_agg(id) from inputs where controller_id = $1), '{}') as input_ids,
              coalesce((select array_agg(id) from outputs where controller_id = $1), '{}') as output_ids`,
      [c.id],
    );
    const sources = [
      `iface-${c.id}`,
      ...w.door_ids.flatMap((d) => [`door-${d}`, `reader-${d}`, `input-${d}`, `output-${d}`]),
      ...w.input_ids.map((i) => `in-${i}`),
      ...w.output_ids.map((o) => `out-${o}`),
    ];
    const params: unknown[] = [sources];
    const { rows } = await db.query<any>(
      `select e.*, a.state as alarm_state, a.instructions from events e left join alarms a on a.event_id = e.id
      where e.event_source_id = any($1::text[]) and ${tenant(params, clientId, 'e')} order by e.id desc limit 20`,
      params,
    );
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
    const params: unknown[] = [];
    const { rows } = await db.query<any>(
      `select c.id, c.name, c.ip_address, c.status, c.firmware, c.online_since, v.name as division_name,
              (select count(*)::int from card_readers r where r.controller_id = c.id) as readers,
              (select count(*)::int from inputs i where i.controller_id = c.id) as inputs,
              (select count(*)::int from outputs o where o.controller_id = c.id) as outputs,
              (select count(*)::int from interfaces f where f.controller_id = c.id) as interfaces,
              (select count(distinct door_id)::int from (select door_id from card_readers where controller_id = c.id union select door_id from inputs where controller_id = c.id
                 union select door_id from outputs where controller_id = c.id) d where door_id is not null) as doors
         from controllers c left join divisions v on v.id = c.division_id where ${tenant(params, clientId, 'c')} order by c.name, c.id`,
      params,
    );
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
