// Alarm notifications told to this console (issue 12): Configure → Alarm notifications can name an operator group;
// its members signed in hear each alarm up to the notification's priority on `/notice/alarm` (the server addresses
// them; nobody else receives it). A priority-1 notice stays until the operator closes it; others go after 15 s. The
// desktop companion shows it too when it can.
import { DESTINATIONS, type AlarmNotice } from '../../contract';
import type { SystemActors } from '../../machines/system';
import { notify } from './notices';
import { alarmNotificationWords } from '../i18n/alarmNotices';

export const ALARM_NOTICE_TITLE = 'Alarm notification';

export function startAlarmNotifications(socket: SystemActors['socket.events'], desktop: (title: string, message: string) => void) {
  return socket.on('socket.message', (e) => {
    if (e.destination !== DESTINATIONS.alarmNotice) return;
    const n = e.body as AlarmNotice;
    const message = alarmNotificationWords(n); // in the operator's language (issue 48)
    notify({ intent: n.priority === 1 ? 'danger' : 'warning', title: ALARM_NOTICE_TITLE, message, timeoutMs: n.priority === 1 ? 0 : 15_000 });
    desktop(ALARM_NOTICE_TITLE, message);
  });
}
