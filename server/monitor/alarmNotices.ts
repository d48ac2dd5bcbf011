// Alarm notifications to the console (issue 12): every alarm raised (once durable) with a priority up to an enabled
// notification's limit is told on `/notice/alarm` to the signed-in members of the notification's operator group,
// each member's sessions only (the broker still lets only those who may see alarms subscribe). The tenant's
// notifications and their groups' members are read once and again after a change notice of either, never per alarm.
import { DESTINATIONS, type AlarmNotice, type Event } from '../../contract';
import type { Db } from '../db/db';
import type { Pipeline } from './pipeline';
import { alarmNotifications } from '../db/queries/monitor';

interface ConsoleNotification {
  id: number;
  name: string;
  maxPriority: number;
  users: number[];
}
export type PublishTo = (clientId: number, destination: string, body: unknown, users: readonly number[]) => void;

export function createAlarmNotices(db: Db, pipeline: Pipeline, publish: PublishTo, opts: { log?: (m: string) => void } = {}) {
  const cache = new Map<number, Promise<ConsoleNotification[]>>();
  let told = 0;

  function notificationsOf(clientId: number): Promise<ConsoleNotification[]> {
    let p = cache.get(clientId);
    if (!p) {
      p = alarmNotifications(db, clientId);
      p.catch(() => cache.delete(clientId));
      cache.set(clientId, p);
    }
    return p;
  }

  async function tell(clientId: number, event: Event) {
    for (const n of await notificationsOf(clientId)) {
      if (event.priority > n.maxPriority || n.users.length === 0) continue;
      const body: AlarmNotice = {
        notificationId: n.id,
        name: n.name,
        eventId: event.id,
        priority: event.priority,
        message: event.message,
        ...(event.messageCode ? { messageCode: event.messageCode, messageValues: event.messageValues ?? {} } : {}),
        at: event.time,
        pointName: event.eventPointName,
      };
      publish(clientId, DESTINATIONS.alarmNotice, body, n.users);
      told++;
    }
  }

  const off = pipeline.onCommitted((clientId, event) => {
    // issue 50: a shelved source raises nothing on screen; issue 47: nor an alarm already over when it arrived (an edge
    // controller's, raised and returned to normal while it was offline)
    if (!event.alert || event.shelved || event.process) return;
    void tell(clientId, event).catch((e) => opts.log?.(`alarm notice: ${e}`));
  });

  return {
    /** A notification or an operator group of this tenant changed: read them again at the next alarm. */
    changed(clientId: number) {
      cache.delete(clientId);
    },
    /** How many notices were published (tests). */
    get told() {
      return told;
    },
    stop() {
      off();
    },
  };
}
