// The alarms on the server, wired in one place (server/app.ts calls attachAlarms once): the operators' commands
// (server/http/alarms.ts), alarm management (issue 50: escalation, forwarding, shelving; ./management.ts) and its
// sweep, started when the server listens and stopped before it closes. `app.alarmManagement.sweep(at)` lets tests
// look for what is due at a time of their choosing.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db';
import { alarmRoutes } from '../http/alarms';
import type { Publish } from '../monitor/events';
import type { Pipeline } from '../monitor/pipeline';
import { registerManagement } from './hooks';
import { createAlarmManagement, type AlarmManagement } from './management';
import { alarmManagementRoutes } from './routes';
import { registerCatalogueParts } from '../resources/parts';

declare module 'fastify' {
  interface FastifyInstance {
    alarmManagement: AlarmManagement;
  }
}

export function attachAlarms(app: FastifyInstance, { db, pipeline, publish }: { db: Db; pipeline: Pipeline; publish: Publish }): AlarmManagement {
  void app.register(alarmRoutes, { db, pipeline });
  const management = createAlarmManagement(db, publish, { log: (m) => app.log.warn(m) });
  registerManagement(publish, management);
  registerCatalogueParts(publish, { record: pipeline.record, db }); // issue 50: a watchlist match's alarm, a leave request's mail
  void app.register(alarmManagementRoutes, { management });
  app.decorate('alarmManagement', management);
  app.addHook('onListen', async () => management.start());
  app.addHook('preClose', async () => management.stop());
  return management;
}
