// Alarm management in the console (issue 50, ISA-18.2 / IEC 62682; contract/alarmManagement.ts): the pure rules the
// alarms machine (./alarms.ts) applies to escalations, forwards and shelvings it hears on /alarmaction, and what it
// keeps of recent raisings to tell a flood (more than 10 alarms in 10 minutes on this console) and a chattering source
// (raised more than 3 times within a minute). Times are the events' own, so a replay decides the same.
import {
  ALARM_CHATTER_COUNT,
  ALARM_CHATTER_WINDOW_MS,
  ALARM_FLOOD_WINDOW_MS,
  eventPointIdOf,
  floodOf,
  sameId,
  type AlarmAction,
  type Event,
  type ForwardTargets,
  type ForwardedAnswer,
  type ShelvedAnswer,
} from '../contract';
import type { Infer } from 'superstruct';

/** One alarm raised on this console: its source and its event's time. */
export interface Raising {
  id: Event['id'];
  point: Event['id'];
  name: string | null;
  time: string;
}
/** The most raisings kept (a flood past it is a flood all the same). */
export const RAISINGS_MAX = 200;

export interface ForwardRequest {
  id: Event['id'];
  userId?: number | null;
  groupId?: number | null;
  note: string;
}
export interface ShelveRequest {
  pointId: string;
  minutes: number;
  reason: string;
}
/** The server's answers: the forward's target and note; the shelving made. */
export type Forwarded = Infer<typeof ForwardedAnswer>;
export type Shelved = Infer<typeof ShelvedAnswer>;
export type { ForwardTargets };

const ms = (t: string) => Date.parse(t);

/** The raisings after `raised` joined: each alarm once, only those within the flood window of the newest, at most RAISINGS_MAX. */
export function keepRaisings(kept: readonly Raising[], raised: readonly Event[]): readonly Raising[] {
  if (!raised.length) return kept;
  const all = [...kept];
  for (const e of raised)
    if (Number.isFinite(ms(e.time)) && !all.some((r) => sameId(r.id, e.id)))
      all.push({ id: e.id, point: eventPointIdOf(e), name: e.eventPointName ?? e.eventSourceName ?? null, time: e.time });
  const newest = Math.max(...all.map((r) => ms(r.time)));
  return all
    .filter((r) => ms(r.time) > newest - ALARM_FLOOD_WINDOW_MS)
    .sort((a, b) => ms(a.time) - ms(b.time))
    .slice(-RAISINGS_MAX);
}

/** §ISA-18.2 flood: more than 10 alarms within the 10 minutes before the newest. */
export const floodOfRaisings = (r: readonly Raising[]) => floodOf(r.map((x) => x.time));

/** Sources that raised more than 3 alarms within one minute (the minute before their newest), most first. */
export function chatteringOf(r: readonly Raising[]): Array<{ pointId: Event['id']; name: string | null; count: number }> {
  const byPoint = new Map<string, Raising[]>();
  for (const x of r) byPoint.set(String(x.point), [...(byPoint.get(String(x.point)) ?? []), x]);
  const out: Array<{ pointId: Event['id']; name: string | null; count: number }> = [];
  for (const list of byPoint.values()) {
    const newest = Math.max(...list.map((x) => ms(x.time)));
    const n = list.filter((x) => ms(x.time) > newest - ALARM_CHATTER_WINDOW_MS).length;
    if (n > ALARM_CHATTER_COUNT) out.push({ pointId: list[0].point, name: list[list.length - 1].name, count: n });
  }
  return out.sort((a, b) => b.count - a.count);
}

/**
 * An /alarmaction without the process flag (issue 50): an alarm escalated or forwarded takes the new values; a shelved
 * point's alarms leave the open list (they come back when the shelving ends: the machine reads the list again). The very
 * list when nothing changes.
 */
export function applyChange(alarms: readonly Event[], a: AlarmAction): Event[] {
  const same = alarms as Event[];
  switch (a.change) {
    case 'escalated':
    case 'forwarded': {
      if (a.alarmId === undefined || !alarms.some((x) => sameId(x.id, a.alarmId!))) return same;
      const patch: Partial<Event> =
        a.change === 'escalated'
          ? { escalationStep: a.escalationStep, escalatedTo: a.escalatedTo ?? null }
          : { forwardedTo: a.forwardedTo ?? null, forwardNote: a.forwardedTo ? `To ${a.forwardedTo}: ${a.note ?? ''}` : (a.note ?? null) };
      return alarms.map((x) => (sameId(x.id, a.alarmId!) ? { ...x, ...patch } : x));
    }
    case 'shelved': {
      const next = alarms.filter((x) => !sameId(eventPointIdOf(x), a.eventPointId));
      return next.length === alarms.length ? same : next;
    }
    default:
      return same;
  }
}
