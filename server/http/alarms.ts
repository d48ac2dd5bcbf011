// Alarms (issue 4): the open list sorted by priority then time [0.2.1.0], acknowledge and process with a note
// [0.2.1.1] (audited, broadcast on /acknowledge/event and /alarmaction, /alarmcount updated), each alarm's
// history [0.2.1.0], and the alarm types (priority + operator instructions) [0.2.1.0].
import { eventDivisions } from '../auth/eventScope';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API, AcknowledgeUpdate, AlarmAction, AlarmHistoryEntry, AlarmType, Event, PRIV, ProcessAlarmBody } from '../../contract';
import type { Db } from '../db/db';
import { AlarmError, type Pipeline } from '../monitor/pipeline';
import { HttpError, body, clientOf, idParam, principal, saidOf } from './kit';
import { audit } from '../audit/trail';
import { alarmTypesOf } from '../db/queries/eventQueries';
import { instructionsKey } from '../monitor/events';
import { array, integer, type } from 'superstruct';
import type { RouteDoc } from '../openapi/declared';

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  open: { response: array(Event), summary: 'Open alarms, most urgent first' },
  count: { response: type({ count: integer() }) },
  acknowledge: { response: AcknowledgeUpdate },
  process: { body: ProcessAlarmBody, response: AlarmAction },
  history: { response: array(AlarmHistoryEntry) },
  types: { response: array(AlarmType) },
} satisfies Record<string, RouteDoc>;

const alarmId = (req: FastifyRequest) => idParam(req, 'Alarm');
const mapped = async <T>(run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } catch (e) {
    if (e instanceof AlarmError) throw new HttpError(e.status, saidOf(e));
    throw e;
  }
};

export function alarmRoutes(app: FastifyInstance, { db, pipeline }: { db: Db; pipeline: Pipeline }) {
  app.get(API.alarms, { config: { privileges: [PRIV.alarms.view], ...DOCS.open } }, async (req) => {
    const clientId = clientOf(req);
    return pipeline.openAlarms(clientId, await eventDivisions(principal(req), [PRIV.alarms.view]));
  });

  app.get(`${API.alarms}/count`, { config: { privileges: [PRIV.alarms.view], ...DOCS.count } }, async (req) => {
    const clientId = clientOf(req);
    return { count: await pipeline.openCountIn(clientId, await eventDivisions(principal(req), [PRIV.alarms.view])) };
  });

  app.post(`${API.alarms}/:id/acknowledge`, { config: { privileges: [PRIV.alarms.act], touches: 'client', ...DOCS.acknowledge } }, async (req) => {
    const clientId = clientOf(req);
    const id = alarmId(req);
    return mapped(() =>
      pipeline.acknowledge(clientId, id, principal(req).username, (tx, before, after) =>
        audit(tx, req, { clientId, action: 'acknowledge', entity: 'alarm', entityId: id, before, after }),
      ),
    );
  });

  app.post(`${API.alarms}/:id/process`, { config: { privileges: [PRIV.alarms.act], touches: 'client', ...DOCS.process } }, async (req) => {
    const clientId = clientOf(req);
    const id = alarmId(req);
    const { note } = body(req.body, ProcessAlarmBody);
    return mapped(() =>
      pipeline.process(clientId, id, principal(req).username, note.trim(), (tx, before, after) =>
        audit(tx, req, { clientId, action: 'process', entity: 'alarm', entityId: id, before, after }),
      ),
    );
  });

  app.get(`${API.alarms}/:id/history`, { config: { privileges: [PRIV.alarms.view], ...DOCS.history } }, async (req) =>
    mapped(() => pipeline.history(clientOf(req), alarmId(req), principal(req).username)),
  );

  app.get(API.alarmTypes, { config: { privileges: [PRIV.alarms.view], ...DOCS.types } }, async (req) => {
    const clientId = clientOf(req);
    const rows = await alarmTypesOf(db, clientId);
    return rows
      .map((r) => ({
        eventCode: r.event_code,
        name: r.name,
        priority: r.priority,
        instructions: r.instructions,
        ...instructionsKey(r.event_code, r.instructions),
      }))
      .sort((a, b) => a.priority - b.priority || a.eventCode - b.eventCode);
  });
}
