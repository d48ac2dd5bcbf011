// The site at any moment (issue 50): Monitor → Floor plan's time slider asks for one plan as it stood at a past
// moment T of the last 30 days (GET …/floor-plans/:id/at?t=) and for the alarms of the period it shows, to jump to
// (GET …/floor-plans/:id/alarms?from=&to=). The live floor plan's privilege [0.2.3.0]; another tenant's plan is 404;
// a T that is not an instant, in the future or older than 30 days is 400 naming `t`. Each part follows the live
// screen that shows it: door states in the divisions the caller sees doors of, alarms in those of their alarm grant,
// the threat level to who may read it live, zones to holders of the access zones' view.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PRIV, floorPlansResource, FLOOR_PLAN_MONITOR, problemSaid } from '../../contract';
import {
  FLOOR_PLAN_HISTORY_ALARMS,
  FloorPlanAlarms,
  FloorPlanAlarmsQuery,
  FloorPlanAt,
  FloorPlanAtQuery,
  floorPlanAlarmsPath,
  floorPlanAtPath,
  pastMomentProblem,
} from '../../contract/floorPlanHistory';
import type { Db } from '../db/db';
import { alarmsOpenAt, alarmsRaisedIn, doorModesAt, doorStatesAt, planDoors, threatAt, zonesAt } from '../db/queries/floorPlanHistory';
import { eventDivisions } from '../auth/eventScope';
import { HttpError, clientOf, divisionsFor, idParam, principal, query, fill, INVALID_REQUEST } from './kit';
import type { RouteDoc } from '../openapi/declared';

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  at: { query: FloorPlanAtQuery, response: FloorPlanAt, summary: 'One floor plan as it stood at a past moment of the last 30 days' },
  alarms: { query: FloorPlanAlarmsQuery, response: FloorPlanAlarms, summary: 'The alarms raised in a period of the last 30 days' },
} satisfies Record<string, RouteDoc>;

const THREAT_READERS = [PRIV.doors.view, PRIV.doors.control, PRIV.overrides.view];

/** A moment of the last 30 days, or 400 naming its field; answered as the ISO instant the queries compare with. */
function moment(value: string, field: string, now: number): string {
  const problem = pastMomentProblem(Date.parse(value), now);
  if (problem) throw new HttpError(400, INVALID_REQUEST, [{ field, ...problemSaid(problem) }]);
  return new Date(value).toISOString();
}

export function floorPlanHistoryRoutes(app: FastifyInstance, { db }: { db: Db }) {
  async function plan(req: FastifyRequest) {
    const clientId = clientOf(req);
    const id = idParam(req, 'Floor plan');
    const doors = await planDoors(db, clientId, id);
    if (!doors) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Floor plan' }));
    return { clientId, id, doors };
  }

  app.get(floorPlanAtPath(floorPlansResource.api), { config: { privileges: [FLOOR_PLAN_MONITOR], ...DOCS.at } }, async (req): Promise<FloorPlanAt> => {
    const { t } = query(req.query, FloorPlanAtQuery);
    const at = moment(t, 't', Date.now());
    const { clientId, id, doors } = await plan(req);
    const p = principal(req);
    const doorDivisions = divisionsFor(p, [PRIV.doors.view]);
    const seen = doors.filter((d) => d.divisionId === null || doorDivisions.includes(d.divisionId)).map((d) => d.doorId);
    const canSeeDoors = p.held.has(PRIV.doors.view);
    const [states, modes] =
      canSeeDoors && seen.length ? await Promise.all([doorStatesAt(db, clientId, seen, at), doorModesAt(db, clientId, seen, at)]) : [null, null];
    const pinned = doors.map((d) => d.doorId);
    const threatShown = THREAT_READERS.some((c) => p.held.has(c));
    return {
      planId: id,
      at,
      doors: doors.map(({ doorId }) => {
        const s = states?.get(doorId);
        return { doorId, status: s?.status ?? null, mode: modes?.get(doorId) ?? null, changedAt: s?.changedAt ?? null };
      }),
      alarms: p.held.has(PRIV.alarms.view)
        ? await alarmsOpenAt(db, clientId, await eventDivisions(p, [PRIV.alarms.view]), pinned, at, FLOOR_PLAN_HISTORY_ALARMS)
        : null,
      threat: threatShown ? await threatAt(db, clientId, at) : null,
      threatShown,
      zones: p.held.has(PRIV.accessZones.view) ? await zonesAt(db, clientId, at) : null,
    };
  });

  app.get(
    floorPlanAlarmsPath(floorPlansResource.api),
    { config: { privileges: [FLOOR_PLAN_MONITOR], ...DOCS.alarms } },
    async (req): Promise<FloorPlanAlarms> => {
      const q = query(req.query, FloorPlanAlarmsQuery);
      const now = Date.now();
      const from = moment(q.from, 'from', now);
      const to = moment(q.to, 'to', now);
      if (Date.parse(to) < Date.parse(from))
        throw new HttpError(400, INVALID_REQUEST, [{ field: 'to', ...fill('period.endBeforeStart', 'must not be before the start of the period', {}) }]);
      const { clientId, doors } = await plan(req);
      const p = principal(req);
      if (!p.held.has(PRIV.alarms.view)) return { items: [] };
      const divisions = await eventDivisions(p, [PRIV.alarms.view]);
      return {
        items: await alarmsRaisedIn(
          db,
          clientId,
          divisions,
          doors.map((d) => d.doorId),
          from,
          to,
          FLOOR_PLAN_HISTORY_ALARMS,
        ),
      };
    },
  );
}
