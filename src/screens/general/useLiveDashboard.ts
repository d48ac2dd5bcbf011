// The dashboard's figures, live (issue 10): read once, then again whenever the real-time topics the console already
// follows say something changed (alarm counts, events, visitor sign-ins and sign-outs), at most every
// DASHBOARD_LIVE_MS and never while a read is still on its way (a slow answer is not cancelled by the next one): the
// live reading actor (machines/reading.ts, its read in src/system/readActors.ts). Door states are live in their own
// widget (heart-beats over the doors list). The last answer stays on screen while the next is read; another client
// starts from scratch.
import { DESTINATIONS, type DashboardSummary } from '../../../contract';
import { useReading } from '../../hooks/useReading';

const LIVE_TOPICS = { destinations: [DESTINATIONS.alarmCount, DESTINATIONS.events, DESTINATIONS.clocking] };

export function useLiveDashboard() {
  const read = useReading<DashboardSummary>('dashboardReading', { notices: LIVE_TOPICS, live: true });
  const status: 'active' | 'done' | 'error' = read.busy ? 'active' : read.failed ? 'error' : 'done';
  return { data: read.output ?? undefined, status, reload: read.reload };
}
