// Controller diagnostics and the hub (server/http/diagnostics.ts; issue 48: its queries in the queries room): a
// controller by its address, what is wired to it, its latest events, and every controller of the client at a glance.
import type { Db } from '../db';
import { tenant } from '../tenant';

export interface DiagnosedController {
  id: number;
  name: string;
  ip_address: string;
  status: string;
  firmware: string | null;
  online_since: unknown;
  division_name: string | null;
}

/** The client's controller at IPv4 address `ip` (the first by id), with its division's name. */
export async function controllerByAddress(db: Db, clientId: number, ip: string): Promise<DiagnosedController | undefined> {
  const params: unknown[] = [ip];
  const {
    rows: [c],
  } = await db.query<DiagnosedController>(
    `select c.id, c.name, c.ip_address, c.status, c.firmware, c.online_since, v.name as division_name
       from controllers c left join divisions v on v.id = c.division_id where c.ip_address = $1 and ${tenant(params, clientId, 'c')} order by c.id limit 1`,
    params,
  );
  return c;
}

export interface ControllerWiring {
  doors: number;
  readers: number;
  inputs: number;
  outputs: number;
  door_ids: number[];
  input_ids: number[];
  output_ids: number[];
}

/** What is wired to controller `id`: its doors (through readers, inputs and outputs), readers, inputs and outputs, counted and by id. */
export async function controllerWiring(db: Db, id: number): Promise<ControllerWiring> {
  const {
    rows: [w],
  } = await db.query<ControllerWiring>(
    `select (select count(distinct door_id)::int from (select door_id from card_readers where controller_id = $1 union select door_id from inputs where controller_id = $1
                union select door_id from outputs where controller_id = $1) d where door_id is not null) as doors,
              (select count(*)::int from card_readers where controller_id = $1) as readers,
              (select count(*)::int from inputs where controller_id = $1) as inputs,
              (select count(*)::int from outputs where controller_id = $1) as outputs,
              coalesce((select array_agg(distinct door_id) from (select door_id from card_readers where controller_id = $1 union select door_id from inputs where controller_id = $1
                union select door_id from outputs where controller_id = $1) d where door_id is not null), '{}') as door_ids,
              coalesce((select array_agg(id) from inputs where controller_id = $1), '{}') as input_ids,
              coalesce((select array_agg(id) from outputs where controller_id = $1), '{}') as output_ids`,
    [id],
  );
  return w;
}

/** The client's latest 20 events of `sources`, with their alarm's state and instructions. */
export async function latestEventsOf(db: Db, clientId: number, sources: string[]): Promise<any[]> {
  const params: unknown[] = [sources];
  const { rows } = await db.query<any>(
    `select e.*, a.state as alarm_state, a.instructions from events e left join alarms a on a.event_id = e.id
      where e.event_source_id = any($1::text[]) and ${tenant(params, clientId, 'e')} order by e.id desc limit 20`,
    params,
  );
  return rows;
}

/** Every controller of the client by name, with its division and how many readers, inputs, outputs, interfaces and doors it has. */
export async function controllerHubRows(db: Db, clientId: number): Promise<any[]> {
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
  return rows;
}
