// Issue 10: every command of the long-lived actors says what happened. The machines emit the facts; the shell
// turns them into success toasts (failures are shown by the screen that sent the command).
import { useEffect } from 'react';
import { TOAST_MS } from '../../contract';
import { notify } from '../hooks/console';
import { tx } from '../i18n';
import { useSystemActor } from '../hooks/useSystemActor';

export function Feedback() {
  const alarms = useSystemActor('alarms');
  useEffect(() => {
    const sub = alarms.on('alarm.commandDone', (e) =>
      notify(
        e.what === 'acknowledged'
          ? { intent: 'success', title: tx('Alarm acknowledged'), message: tx('Every console of the client sees it acknowledged.'), timeoutMs: TOAST_MS }
          : { intent: 'success', title: tx('Alarm processed'), message: tx('The alarm is closed with your note.'), timeoutMs: TOAST_MS },
      ),
    );

    return () => sub.unsubscribe();
  }, [alarms]);
  const session = useSystemActor('session');
  useEffect(() => {
    const sub = session.on('session.profileSaved', () =>
      notify({ intent: 'success', title: tx('Profile saved'), message: tx('Your name, time zone and colour are kept.'), timeoutMs: TOAST_MS }),
    );
    return () => sub.unsubscribe();
  }, [session]);
  return null;
}
