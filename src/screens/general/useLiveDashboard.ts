// The dashboard's figures, live (issue 10): read once, then again whenever the real-time topics the console already
// follows say something changed (alarm counts, events, visitor sign-ins and sign-outs), at most every
// DASHBOARD_LIVE_MS and never while a read is still on its way (a slow answer is not cancelled by the next one).
// Door states are live in their own widget (heart-beats over the doors list). The last answer stays on screen
// while the next is read.
import { useEffect, useRef } from 'react';
import { DASHBOARD_LIVE_MS, DESTINATIONS, type DashboardSummary } from '../../../contract';
import { dashboard } from '../../api/endpoints';
import { useTask } from '../../ui/useTask';

const LIVE_TOPICS = [DESTINATIONS.alarmCount, DESTINATIONS.events, DESTINATIONS.clocking];

export function useLiveDashboard(clientId: number | null | undefined) {
  const task = useTask(() => dashboard(), [clientId]);
  const last = useRef<{ clientId: typeof clientId; data: DashboardSummary } | null>(null);
  if (task.output) last.current = { clientId, data: task.output };
  const kept = last.current;
  const shown = kept && kept.clientId === clientId ? kept.data : undefined;
  const live = useRef({ reload: task.reload, busy: task.status === 'active', owed: false, timer: null as ReturnType<typeof setTimeout> | null });
  live.current.reload = task.reload;
  live.current.busy = task.status === 'active';

  const due = () => {
    const l = live.current;
    l.timer = null;
    if (l.busy) l.owed = true; // read again once this answer is in
    else l.reload();
  };
  useEffect(() => {
    const changed = () => { live.current.timer ??= setTimeout(due, DASHBOARD_LIVE_MS); };
    for (const t of LIVE_TOPICS) document.addEventListener(`gatehouse:${t}`, changed);
    return () => {
      for (const t of LIVE_TOPICS) document.removeEventListener(`gatehouse:${t}`, changed);
      if (live.current.timer) clearTimeout(live.current.timer);
      live.current.timer = null;
    };
  }, []);
  useEffect(() => {
    const l = live.current;
    if (task.status !== 'active' && l.owed) { l.owed = false; l.timer ??= setTimeout(due, DASHBOARD_LIVE_MS); }
  }, [task.status]);
  return { data: shown, status: task.status, reload: task.reload };
}
