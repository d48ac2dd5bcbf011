// The dashboard's figures, live (issue 10): read once, then again (at most every DASHBOARD_LIVE_MS) whenever the
// real-time topics the console already follows say something changed: alarm counts, events, door heart-beats,
// visitor sign-ins and sign-outs. The last answer stays on screen while the next is read.
import { useEffect, useRef } from 'react';
import { DASHBOARD_LIVE_MS, DESTINATIONS, type DashboardSummary } from '../../../contract';
import { dashboard } from '../../api/endpoints';
import { useTask } from '../../ui/useTask';

const LIVE_TOPICS = [DESTINATIONS.alarmCount, DESTINATIONS.events, DESTINATIONS.doorHeartbeat, DESTINATIONS.clocking];

export function useLiveDashboard(clientId: number | null | undefined) {
  const task = useTask(() => dashboard(), [clientId]);
  const last = useRef<{ clientId: typeof clientId; data: DashboardSummary } | null>(null);
  if (task.output) last.current = { clientId, data: task.output };
  const kept = last.current;
  const shown = kept && kept.clientId === clientId ? kept.data : undefined;
  const reload = useRef(task.reload);
  reload.current = task.reload;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const changed = () => { timer ??= setTimeout(() => { timer = null; reload.current(); }, DASHBOARD_LIVE_MS); };
    for (const t of LIVE_TOPICS) document.addEventListener(`gatehouse:${t}`, changed);
    return () => {
      for (const t of LIVE_TOPICS) document.removeEventListener(`gatehouse:${t}`, changed);
      if (timer) clearTimeout(timer);
    };
  }, []);
  return { data: shown, status: task.status, reload: task.reload };
}
