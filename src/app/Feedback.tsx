// Issue 10: every command of the long-lived actors says what happened. The machines emit the facts; the shell
// turns them into success toasts (failures are shown by the screen that sent the command).
import { useEffect } from 'react';
import { TOAST_MS } from '../../contract';
import { notify } from '../hooks/console';
import { tx } from '../i18n';
import { useSystemActor } from '../hooks/useSystemActor';
import type { CommandDone } from '../../machines/alarms';

const DONE: Record<CommandDone, { title: string; message: string }> = {
  get acknowledged() {
    return { title: tx('Alarm acknowledged'), message: tx('Every console of the client sees it acknowledged.') };
  },
  get processed() {
    return { title: tx('Alarm processed'), message: tx('The alarm is closed with your note.') };
  },
  // issue 50
  get forwarded() {
    return { title: tx('Alarm forwarded'), message: tx('They are told of it with your note.') };
  },
  get shelved() {
    return { title: tx('Source shelved'), message: tx('Its alarms are still recorded; they show again when the shelving ends.') };
  },
};

export function Feedback() {
  const alarms = useSystemActor('alarms');
  useEffect(() => {
    const sub = alarms.on('alarm.commandDone', (e) => notify({ intent: 'success', ...DONE[e.what], timeoutMs: TOAST_MS }));

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
