// Door states as operators read them: the server's stored status, overlaid by the live heart-beats the
// hardwareStatus actor keeps (`/hbdoor`), named and coloured the same on the doors screen and the dashboard.
// A door in an alarm state (contract/doors.ts) is a `problem`: it "needs attention", apart from normal traffic.
import type { IconName, Intent } from '@blueprintjs/core';
import { closedDoorLock, doorNeedsAttention, type DoorView } from '../../../contract';
import type { DoorState } from '../../../machines/hardwareStatus';

export interface DoorStateLook {
  label: string;
  intent: Intent;
  icon: IconName;
  problem: boolean;
}
const look = (status: string, label: string, intent: Intent, icon: IconName): DoorStateLook => ({ label, intent, icon, problem: doorNeedsAttention(status) });

/** Most urgent first: the order of counts and of the doors list. */
export const DOOR_STATES: Record<string, DoorStateLook> = {
  'forced-open': look('forced-open', 'Forced open', 'danger', 'error'),
  tamper: look('tamper', 'Tamper', 'danger', 'hand'),
  offline: look('offline', 'Offline', 'danger', 'offline'),
  'held-open': look('held-open', 'Held open', 'warning', 'warning-sign'),
  'unlocked-briefly': look('unlocked-briefly', 'Unlocked briefly', 'primary', 'time'),
  unlocked: look('unlocked', 'Unlocked', 'primary', 'unlock'),
  locked: look('locked', 'Locked', 'success', 'lock'),
  closed: look('closed', 'Closed', 'none', 'key-enter'),
};
/** A door's state as read (issue 50: a closed door says whether it is locked, as its mode leaves it: "Closed, locked"). */
export const doorStateOf = (status: string, mode?: string | null): DoorStateLook =>
  status === 'closed'
    ? closedDoorLock(mode) === 'locked'
      ? look(status, 'Closed, locked', 'none', 'lock')
      : look(status, 'Closed, unlocked', 'primary', 'unlock')
    : (DOOR_STATES[status] ?? look(status, status.replace(/-/g, ' '), 'none', 'help'));

export interface LiveDoor extends DoorView {
  live: boolean;
}

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
  return stored
    .filter((d) => {
      const beat = beats.get(String(d.id));
      return beat !== undefined && beat !== d.status;
    })
    .map((d) => `${d.id}:${beats.get(String(d.id))}`)
    .join(',');
}

const rank = (s: string) => {
  const order = Object.keys(DOOR_STATES);
  return order.includes(s) ? order.indexOf(s) : order.length;
};

/** The doors list's order: doors that need attention first (most urgent state first), then the rest as they came. */
export function attentionFirst<T extends { status: string }>(doors: readonly T[]): T[] {
  return doors
    .map((d, i) => ({ d, i }))
    .sort((a, b) => {
      const pa = doorNeedsAttention(a.d.status),
        pb = doorNeedsAttention(b.d.status);
      if (pa !== pb) return pa ? -1 : 1;
      return (pa ? rank(a.d.status) - rank(b.d.status) : 0) || a.i - b.i;
    })
    .map((x) => x.d);
}

/** How many doors are in each state, most urgent states first. */
export function countDoors(doors: readonly { status: string }[]): { status: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const d of doors) counts.set(d.status, (counts.get(d.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => ({ status, count })).sort((a, b) => rank(a.status) - rank(b.status) || a.status.localeCompare(b.status));
}
