// Door states as operators read them: the server's stored status, overlaid by the live heart-beats the
// hardwareStatus actor keeps (`/hbdoor`), named and coloured the same on the doors screen and the dashboard.
import type { Intent } from '@blueprintjs/core';
import type { DoorView } from '../../../contract';
import type { DoorState } from '../../../machines/hardwareStatus';

export const DOOR_STATES: Record<string, { label: string; intent: Intent; problem: boolean }> = {
  'forced-open': { label: 'Forced open', intent: 'danger', problem: true },
  'held-open': { label: 'Held open', intent: 'warning', problem: true },
  offline: { label: 'Offline', intent: 'danger', problem: true },
  unlocked: { label: 'Unlocked', intent: 'primary', problem: false },
  locked: { label: 'Locked', intent: 'success', problem: false },
  closed: { label: 'Closed', intent: 'none', problem: false },
};
export const doorStateOf = (status: string) => DOOR_STATES[status] ?? { label: status.replace(/-/g, ' '), intent: 'none' as Intent, problem: false };

export interface LiveDoor extends DoorView { live: boolean }

/** The REST list with each door's latest heart-beat over its stored status. */
export function mergeDoors(stored: readonly DoorView[], live: readonly DoorState[]): LiveDoor[] {
  const beats = new Map(live.map((d) => [String(d.id), d.doorStatus]));
  return stored.map((d) => {
    const beat = beats.get(String(d.id));
    return { ...d, status: beat ?? d.status, live: beat !== undefined };
  });
}

/**
 * Doors whose heart-beat says something the stored list has not heard yet, as one key ('' when none): when it
 * changes the list is read again, for the time of the change (a heart-beat carries no time).
 */
export function unheardChanges(stored: readonly DoorView[], live: readonly DoorState[]): string {
  const beats = new Map(live.map((d) => [String(d.id), d.doorStatus]));
  return stored.filter((d) => { const beat = beats.get(String(d.id)); return beat !== undefined && beat !== d.status; })
    .map((d) => `${d.id}:${beats.get(String(d.id))}`).join(',');
}

/** How many doors are in each state, most urgent states first. */
export function countDoors(doors: readonly { status: string }[]): { status: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const d of doors) counts.set(d.status, (counts.get(d.status) ?? 0) + 1);
  const order = Object.keys(DOOR_STATES);
  const rank = (s: string) => (order.includes(s) ? order.indexOf(s) : order.length);
  return [...counts].map(([status, count]) => ({ status, count })).sort((a, b) => rank(a.status) - rank(b.status) || a.status.localeCompare(b.status));
}
