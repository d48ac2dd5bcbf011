// Event history [0.2.2.0]: paged, filtered (code, point, alert, time range, text, after an id) and sorted over
// the (client_id, id desc) and (client_id, event_code, id desc) indexes. Doors with their simulated status
// [0.4.5.0] and door commands [0.4.5.4]. The test-only simulate hook, registered only when asked for.
import type { FastifyInstance } from 'fastify';
import { API, DoorCommandBody, PRIV, SimulateBody, type Violation } from '../../contract';
import type { Db } from '../db/db';
import { eventOfRow } from '../monitor/pipeline';
import { SimulatorError, type HardwareSimulator } from '../simulator/hardware';
import { HttpError, audit, body, clientOf, listParams, principal } from './common';

const SORTABLE = { id: 'e.id', time: 'e.at', eventCode: 'e.event_code', priority: 'e.priority', eventPointName: 'e.event_point_name' };
const simulatorErrors = async <T>(run: () => Promise<T>): Promise<T> => {
  try { return await run(); } catch (e) {
    if (e instanceof SimulatorError) throw new HttpError(e.status, e.message);
    throw e;
  }
};

export function eventRoutes(app: FastifyInstance, { db, simulator, testHooks }: { db: Db; simulator: HardwareSimulator; testHooks: boolean }) {
  app.get(API.events, { config: { privileges: [PRIV.events.view, PRIV.eventReport] } }, async (req) => {
    const clientId = clientOf(req);
    const lp = listParams(req.query, SORTABLE, 'e.id desc');
    const q = req.query as Record<string, string | undefined>;
    const params: unknown[] = [clientId];
    const where: string[] = ['e.client_id = $1'];
    const violations: Violation[] = [];
    const add = (sql: (n: number) => string, value: unknown) => { params.push(value); where.push(sql(params.length)); };
    if (q.eventCode !== undefined) {
      const codes = q.eventCode.split(',').map(Number);
      if (codes.some((c) => !Number.isInteger(c))) violations.push({ field: 'eventCode', message: 'must be whole numbers separated by commas' });
      else add((n) => `e.event_code = any($${n}::int[])`, codes);
    }
    if (q.eventPointId) add((n) => `e.event_point_id = $${n}`, q.eventPointId);
    if (q.alert !== undefined) {
      if (q.alert !== 'true' && q.alert !== 'false') violations.push({ field: 'alert', message: 'must be true or false' });
      else add((n) => `e.alert = $${n}`, q.alert === 'true');
    }
    for (const [field, op] of [['from', '>='], ['to', '<']] as const) {
      const v = q[field];
      if (v === undefined) continue;
      if (Number.isNaN(Date.parse(v))) violations.push({ field, message: 'must be an ISO date-time' });
      else add((n) => `e.at ${op} $${n}::timestamptz`, new Date(v).toISOString());
    }
    if (q.afterId !== undefined) {
      if (!/^\d+$/.test(q.afterId)) violations.push({ field: 'afterId', message: 'must be a whole number' });
      else add((n) => `e.id > $${n}::bigint`, q.afterId);
    }
    if (violations.length) throw new HttpError(400, 'Validation failed', violations);
    if (lp.q) add((n) => `(e.message ilike $${n} or e.event_point_name ilike $${n})`, `%${lp.q}%`);
    const w = where.join(' and ');
    // an exact total over millions of rows is the slow part: count at most 10,001 and say "more" beyond
    const total = await db.query<{ n: string }>(`select count(*)::text n from (select 1 from events e where ${w} limit 10001) t`, params);
    const { rows } = await db.query<any>(`select e.*, a.state as alarm_state, a.instructions from events e left join alarms a on a.event_id = e.id
      where ${w} order by ${lp.orderBy} limit ${lp.size} offset ${lp.page * lp.size}`, params);
    return { items: rows.map(eventOfRow), total: Number(total.rows[0].n), page: lp.page, size: lp.size };
  });

  app.get(API.doors, { config: { privileges: [PRIV.doors.view, PRIV.doors.control] } }, async (req) => {
    const clientId = clientOf(req);
    const { rows } = await db.query<any>('select id, name, status, division_id from doors where client_id = $1 order by id', [clientId]);
    const items = rows.map((r) => ({ id: r.id, name: r.name, status: r.status, divisionId: r.division_id }));
    return { items, total: items.length, page: 0, size: items.length };
  });

  app.post(`${API.doors}/:id/commands`, { config: { privileges: [PRIV.doors.control] } }, async (req) => {
    const clientId = clientOf(req);
    const id = Number((req.params as { id?: string }).id);
    if (!Number.isInteger(id) || id < 1) throw new HttpError(404, 'Door not found');
    const { command } = body(req.body, DoorCommandBody);
    const event = await simulatorErrors(() => simulator.command(clientId, id, command, principal(req).username));
    await audit(db, req, { clientId, action: command, entity: 'door', entityId: id, before: null, after: { eventId: event.id } });
    return event;
  });

  if (testHooks) {
    app.post(API.testSimulate, async (req) => {
      const clientId = clientOf(req);
      const input = body(req.body, SimulateBody);
      return simulatorErrors(() => simulator.force(clientId, input.kind, { doorId: input.doorId, controllerId: input.controllerId }));
    });
  }
}
