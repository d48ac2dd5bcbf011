// The shell shows every notice (src/system/notices.ts) as a Blueprint toast.
import { useEffect } from 'react';
import { OverlayToaster, Position, type Toaster } from '@blueprintjs/core';
import { notices$ } from '../system/notices';

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
  return null;
}
