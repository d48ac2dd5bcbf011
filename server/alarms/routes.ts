// Alarm management's routes (issue 50; contract/alarmManagement.ts), beside the alarm commands of server/http/alarms.ts:
//   POST /event/manage/alarms/shelve            {pointId, minutes, reason}: shelve a source [0.2.1.2], audited
//   POST /event/manage/alarms/:id/forward       {userId | groupId, note}: forward an alarm [0.2.1.3], audited
//   GET  /event/manage/alarms/forward-targets   the client's operators and operator groups [0.2.1.3]
// Another client's alarm is 404; a bad body 400 with its violations, changing nothing.
import type { FastifyInstance } from 'fastify';
import { API, ForwardAlarmBody, PRIV, ShelveAlarmBody } from '../../contract';
import { audit } from '../audit/trail';
import { HttpError, saidOf, body, clientOf, idParam, principal } from '../http/kit';
import { ManagementError, type AlarmManagement } from './management';

const mapped = async <T>(run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ManagementError) throw new HttpError(e.status, saidOf(e), e.violations);
    throw e;
  }
};

export function alarmManagementRoutes(app: FastifyInstance, { management: m }: { management: AlarmManagement }) {
  app.post(`${API.alarms}/shelve`, { config: { privileges: [PRIV.alarms.shelve], touches: 'client' } }, async (req) => {
    const clientId = clientOf(req);
    const b = body(req.body, ShelveAlarmBody);
    return mapped(() =>
      m.shelve(clientId, b.pointId.trim(), b.minutes, b.reason.trim(), principal(req).username, (tx, before, after, id) =>
        audit(tx, req, { clientId, action: 'shelve', entity: 'alarmShelving', entityId: id, before, after }),
      ),
    );
  });

  app.post(`${API.alarms}/:id/forward`, { config: { privileges: [PRIV.alarms.forward], touches: 'client' } }, async (req) => {
    const clientId = clientOf(req);
    const id = idParam(req, 'Alarm');
    const b = body(req.body, ForwardAlarmBody);
    return mapped(() =>
      m.forward(clientId, id, b, principal(req).username, (tx, before, after) =>
        audit(tx, req, { clientId, action: 'forward', entity: 'alarm', entityId: id, before, after }),
      ),
    );
  });

  app.get(`${API.alarms}/forward-targets`, { config: { privileges: [PRIV.alarms.forward] } }, async (req) => m.forwardTargets(clientOf(req)));
}
