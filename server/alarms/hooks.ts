// The alarm shelvings' catalogue hooks (contract/resources/alarmShelvings.ts): the state a row is in, and End (POST
// …/:id/end [0.2.1.2]): the shelving ends now and its source's open alarms come back to the consoles. The catalogue
// locks the row, audits the action and sends the change notice; the consoles are told after the commit.
import { PRIV } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { HttpError, saidOf, fill } from '../http/kit';
import type { Publish } from '../monitor/events';
import { ManagementError, type AlarmManagement } from './management';

/** Each server's alarm management by the publish it was made with (the catalogue's hooks are made with the same). */
const byPublish = new WeakMap<Publish, AlarmManagement>();
export const registerManagement = (publish: Publish, m: AlarmManagement) => byPublish.set(publish, m);

export const alarmShelvingHooks = (publish?: Publish): ResourceHooks => ({
  select: { state: `case when t.ended_at is null then 'shelved' else coalesce(t.end_reason, 'ended') end` },
  actions: {
    end: {
      privilege: PRIV.alarms.shelve,
      async run(ctx, before) {
        const m = publish && byPublish.get(publish);
        if (!m) throw new HttpError(503, fill('alarmManagement.notRunning', 'Alarm management is not running', {}));
        try {
          await m.endShelving(ctx.tx, ctx.clientId!, before.id, ctx.username);
        } catch (e) {
          if (e instanceof ManagementError) throw new HttpError(e.status, saidOf(e), e.violations);
          throw e;
        }
      },
      audit: (before, after) => ({ before: { state: before.state }, after: { state: after.state, endedAt: after.endedAt, endedBy: after.endedBy } }),
      afterCommit(clientId, after) {
        const m = publish && byPublish.get(publish);
        void m?.afterUnshelve(clientId, String(after.eventPointId)).catch(() => {});
      },
    },
  },
});
