// Issue 10: every command of the long-lived actors says what happened. The machines emit the facts; the shell
// turns them into success toasts (failures are shown by the screen that sent the command).
import { useEffect } from 'react';
import { TOAST_MS } from '../../contract';
import { notify } from '../system/notices';
import { useSystemActor } from './useSystemActor';

export function Feedback() {
  const alarms = useSystemActor('alarms');
  useEffect(() => {
    const sub = alarms.on('alarm.commandDone', (e) => notify(e.what === 'acknowledged'
      ? { intent: 'success', title: 'Alarm acknowledged', message: 'Every console of the client sees it acknowledged.', timeoutMs: TOAST_MS }
      : { intent: 'success', title: 'Alarm processed', message: 'The alarm is closed with your note.', timeoutMs: TOAST_MS }));
    return () => sub.unsubscribe();
  }, [alarms]);
  return null;
}
