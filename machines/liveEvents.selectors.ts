// What the live events screen reads of its actor (machines/liveEvents.ts).
import type { Event } from '../contract';
import type { LiveEventsCarry, LiveEventsSnapshot } from './liveEvents';

export { MAX_ROWS } from './eventOrder';

type S = Pick<LiveEventsSnapshot, 'context' | 'value'>;

/** Whether an event passes the screen's filter: alarms only, and a text in its message or point name, or its code. */
export function passesFilter(e: Event, text: string, alertsOnly: boolean): boolean {
  const q = text.trim().toLowerCase();
  return (
    (!alertsOnly || !!e.alert) && (!q || e.message.toLowerCase().includes(q) || String(e.eventCode) === q || (e.eventPointName ?? '').toLowerCase().includes(q))
  );
}

/** The rows the table shows: the list through the filter. */
export const selectShownEvents = (s: S): Event[] => s.context.rows.filter((e) => passesFilter(e, s.context.filter, s.context.alertsOnly));
export const selectPaused = (s: S) => s.context.paused;
/** How many live events wait while paused. */
export const selectHeldCount = (s: S) => s.context.held.length;
export const selectFilterText = (s: S) => s.context.filter;
export const selectAlertsOnly = (s: S) => s.context.alertsOnly;

/** The stored history's filters that match the screen's (a number is an event code): the event report and the export. */
export function selectHistoryFilters(s: S): Record<string, string> {
  const filters: Record<string, string> = {};
  const text = s.context.filter.trim();
  if (/^\d+$/.test(text)) filters.eventCode = text;
  else if (text) filters.q = text;
  if (s.context.alertsOnly) filters.alert = 'true';
  return filters;
}

/** What the list carries over when a kept-alive screen is shown again (its actor closed while hidden). */
export const selectCarry = (s: S): LiveEventsCarry => ({
  rows: s.context.rows,
  held: s.context.held,
  paused: s.context.paused,
  filter: s.context.filter,
  alertsOnly: s.context.alertsOnly,
  historyLoaded: s.value === 'loaded',
});
