// Event history [0.2.2.0]: paged, filtered (code, point, alert, time range, text, after/before an id) and sorted over
// the (client_id, id desc), (client_id, event_code, id desc), (client_id, at desc, id desc) and alert-only indexes. Doors with their simulated status
// [0.4.5.0] and door commands [0.4.5.4] (server/http/doors.ts). The test-only simulate hook, registered only when asked for.
import { divisionCondition, eventDivisions } from '../auth/eventScope';
import type { QrPublisher } from '../access/qrPublisher';
import type { FastifyInstance } from 'fastify';
import { API, Event, FIXED_SAID, LIST_COUNT_CAP, ListQuery, PRIV, Page, SimulateBody, fill, type Violation } from '../../contract';
import type { Db } from '../db/db';
import { eventOfRow } from '../monitor/pipeline';
import type { HardwareSimulator } from '../simulator/hardware';
import { HttpError, body, clientOf, listParams, principal, INVALID_REQUEST } from './kit';
import { doorRoutes, simulatorErrors } from './doors';
import { alarmFigureFilter } from './alarmHandling';
import { tenant } from '../db/tenant';
import { countEventsUpTo, eventListPage } from '../db/queries/eventQueries';
import type { RouteDoc } from '../openapi/declared';

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  list: { query: ListQuery, response: Page(Event), summary: 'Event history' },
  simulate: { body: SimulateBody, response: Event, summary: 'Test servers only (E2E=1): makes an event happen' },
} satisfies Record<string, RouteDoc>;

const SORTABLE = { id: 'e.id', time: 'e.at', eventCode: 'e.event_code', priority: 'e.priority', eventPointName: 'e.event_point_name' };

/** A filter value that arrived once, as text (a repeated query parameter is a mistake, not a list). */
function single(q: Record<string, unknown>, field: string, violations: Violation[]): string | undefined {
  const v = q[field];
  if (v === undefined || typeof v === 'string') return v;
  violations.push({ field, ...fill('query.givenOnce', 'must be given once', {}) });
  return undefined;
}

/**
 * The history filters shared by the list and the export (code, point, alert, from/to, afterId, beforeId, text):
 * a parameterised where clause over `events e` of one client ($1), or 400 with every bad filter named.
 * `text` is the list's validated `q`; without it the raw `q` of the query string is used.
 */
export function eventFilters(
  clientId: number,
  query: unknown,
  text?: string | null,
  divisions: readonly number[] | null = null,
): { where: string; params: unknown[] } {
  const q = (query ?? {}) as Record<string, unknown>;
  const params: unknown[] = [];
  const where: string[] = [tenant(params, clientId, 'e')];
  // the divisions the caller may see events of (issue 10), and events of no division
  if (divisions) {
    params.push([...divisions]);
    where.push(divisionCondition(params.length));
  }
  const violations: Violation[] = [];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    where.push(sql(params.length));
  };
  const eventCode = single(q, 'eventCode', violations);
  if (eventCode !== undefined) {
    const codes = eventCode.split(',').map((c) => (/^\s*\d{1,9}\s*$/.test(c) ? Number(c) : NaN));
    if (codes.some((c) => !Number.isInteger(c)))
      violations.push({ field: 'eventCode', ...fill('list.notWholeNumbers', 'must be whole numbers separated by commas', {}) });
    // one code keeps the (client_id, event_code, id desc) index usable for an ordered scan
    else if (codes.length === 1) add((n) => `e.event_code = $${n}::int`, codes[0]);
    else add((n) => `e.event_code = any($${n}::int[])`, codes);
  }
  const point = single(q, 'eventPointId', violations);
  if (point) add((n) => `e.event_point_id = $${n}`, point);
  const alert = single(q, 'alert', violations);
  if (alert !== undefined) {
    if (alert !== 'true' && alert !== 'false') violations.push({ field: 'alert', ...fill('value.notTrueOrFalse', 'must be true or false', {}) });
    else add((n) => `e.alert = $${n}`, alert === 'true');
  }
  for (const [field, op] of [
    ['from', '>='],
    ['to', '<'],
  ] as const) {
    const v = single(q, field, violations);
    if (v === undefined) continue;
    if (Number.isNaN(Date.parse(v))) violations.push({ field, ...fill('dateTime.notIso', 'must be an ISO date-time', {}) });
    else add((n) => `e.at ${op} $${n}::timestamptz`, new Date(v).toISOString());
  }
  for (const [field, op] of [
    ['afterId', '>'],
    ['beforeId', '<'],
  ] as const) {
    const v = single(q, field, violations);
    if (v === undefined) continue;
    if (!/^\d{1,18}$/.test(v)) violations.push({ field, ...FIXED_SAID.notWhole });
    else add((n) => `e.id ${op} $${n}::bigint`, v);
  }
  // issue 31: the alarms behind a figure of the alarm handling report (alarmFigure, alarmPriority, alarmOperator, alarmHour)
  alarmFigureFilter(q, params, where, violations);
  const rawText = text === undefined ? single(q, 'q', violations)?.trim() : text;
  if (violations.length) throw new HttpError(400, INVALID_REQUEST, violations);
  if (rawText) add((n) => `(e.message ilike $${n} or e.event_point_name ilike $${n})`, `%${rawText}%`);
  return { where: where.join(' and '), params };
}

/** `countCap`: how many matching events a list counts before its total becomes a lower bound (LIST_COUNT_CAP). */
export function eventRoutes(
  app: FastifyInstance,
  { db, simulator, testHooks, qr, countCap = LIST_COUNT_CAP }: { db: Db; simulator: HardwareSimulator; testHooks: boolean; qr: QrPublisher; countCap?: number },
) {
  app.get(API.events, { config: { privileges: [PRIV.events.view, PRIV.eventReport], ...DOCS.list } }, async (req) => {
    const clientId = clientOf(req);
    const lp = listParams(req.query, SORTABLE, 'e.id desc');
    const p = principal(req);
    const { where: w, params } = eventFilters(clientId, req.query, lp.q, await eventDivisions(p, [PRIV.events.view, PRIV.eventReport]));
    // a time range without an asked-for sort reads newest first by time over (client_id, at desc, id desc): the
    // same order as by id (events are stored as they happen), but the id index would walk every newer event first
    const q = req.query as Record<string, unknown>;
    const orderBy = lp.orderBy === 'e.id desc' && (q.from !== undefined || q.to !== undefined) ? 'e.at desc, e.id desc' : lp.orderBy;
    // an exact total over millions of rows is the slow part: as the catalogue's lists (server/crud/plugin.ts), one row
    // more than the page says whether there are more; at most countCap + 1 rows are counted, beyond it the total is a
    // lower bound (`totalIsAtLeast`: "1–20 of 10,000+"), and the last page tells it exactly without counting
    const offset = lp.page * lp.size;
    const rows = await eventListPage(db, w, params, orderBy, lp.size + 1, offset);
    const more = rows.length > lp.size;
    if (more) rows.pop();
    let total = offset + rows.length;
    let totalIsAtLeast = false;
    if (more && offset + lp.size + 1 > countCap) {
      totalIsAtLeast = true;
      total = offset + lp.size + 1;
    } else if (more || (!rows.length && lp.page > 0)) {
      const counted = await countEventsUpTo(db, w, params, countCap);
      totalIsAtLeast = counted > countCap;
      total = Math.min(counted, countCap);
    }
    return { items: rows.map(eventOfRow), total, totalIsAtLeast, page: lp.page, size: lp.size };
  });

  doorRoutes(app, { db, simulator, testHooks, qr });

  if (testHooks) {
    app.post(API.testSimulate, { config: { ...DOCS.simulate } }, async (req) => {
      const clientId = clientOf(req);
      const input = body(req.body, SimulateBody);
      const at = input.at === undefined ? undefined : Date.parse(input.at);
      if (at !== undefined && Number.isNaN(at))
        throw new HttpError(400, INVALID_REQUEST, [{ field: 'at', ...fill('dateTime.notIso', 'must be an ISO date-time', {}) }]);
      return simulatorErrors(() =>
        simulator.force(clientId, input.kind, {
          doorId: input.doorId,
          controllerId: input.controllerId,
          inputId: input.inputId,
          card: input.card,
          qr: input.qr,
          at,
          side: input.side,
          readerId: input.readerId,
          floor: input.floor,
        }),
      );
    });
  }
}
