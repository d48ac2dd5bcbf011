// The shell shows every notice (src/system/notices.ts) as a Blueprint toast.
import { useEffect } from 'react';
import { OverlayToaster, Position, type Toaster } from '@blueprintjs/core';
import { notices$ } from '../system/notices';
import { useSystemActor } from './useSystemActor';

let toaster: Promise<Toaster> | null = null;
const getToaster = () => (toaster ??= OverlayToaster.create({ position: Position.TOP, maxToasts: 4, className: 'gh-toaster' }));

export function Toasts() {
  useEffect(() => {
    const sub = notices$.subscribe(async (n) => {
      (await getToaster()).show({
        intent: n.intent,
        timeout: n.timeoutMs,
        icon: n.intent === 'danger' ? 'error' : n.intent === 'warning' ? 'warning-sign' : n.intent === 'success' ? 'tick-circle' : 'info-sign',
        message: (
          <div className="gh-toast" data-testid="toast">
            <strong>{n.title}</strong>
            {n.message ? <div>{n.message}</div> : null}
          </div>
        ),
      });
    });
    return () => sub.unsubscribe();
  }, []);
  // Issue 10: what one user or client was told goes with them: a sign-out or a client switch clears the toasts
  const session = useSystemActor('session');
  useEffect(() => {
    const clear = () => { if (toaster) void toaster.then((t) => t.clear()); };
    const subs = [session.on('session.ended', clear), session.on('session.clientChanged', clear)];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [session]);
  return null;
}
