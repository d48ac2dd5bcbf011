// What views read of alarm management (issue 50) from the alarms actor: the flood and chattering sources of this
// console (./alarms.management.ts), the open alarms grouped by source, whom an alarm may be forwarded to.
import { compareAlarms, eventPointIdOf, type Event } from '../contract';
import type { AlarmsSnapshot } from './alarms';
import { chatteringOf, floodOfRaisings, type Raising } from './alarms.management';

const floodCache = new WeakMap<readonly Raising[], { inFlood: boolean; count: number }>();
/** ISA-18.2 flood: more than 10 alarms raised on this console within 10 minutes. Stable per list of raisings. */
export const selectFlood = (s: AlarmsSnapshot) => {
  let f = floodCache.get(s.context.raisings);
  if (!f) floodCache.set(s.context.raisings, (f = floodOfRaisings(s.context.raisings)));
  return f;
};

const chatterCache = new WeakMap<readonly Raising[], ReturnType<typeof chatteringOf>>();
/** Sources raising more than 3 times a minute: suggested for shelving. Stable per list of raisings. */
export const selectChattering = (s: AlarmsSnapshot) => {
  let c = chatterCache.get(s.context.raisings);
  if (!c) chatterCache.set(s.context.raisings, (c = chatteringOf(s.context.raisings)));
  return c;
};

export interface AlarmGroup {
  pointId: Event['id'];
  name: string;
  alarms: Event[];
}
const groupCache = new WeakMap<readonly Event[], AlarmGroup[]>();
/** The open alarms by source, each group most urgent first, groups in the order of their most urgent alarm. Stable per list. */
export const selectAlarmGroups = (s: AlarmsSnapshot): AlarmGroup[] => {
  const list = s.context.alarms;
  let out = groupCache.get(list);
  if (!out) {
    const by = new Map<string, AlarmGroup>();
    for (const a of [...list].sort(compareAlarms)) {
      const key = String(eventPointIdOf(a));
      const g = by.get(key);
      if (g) g.alarms.push(a);
      else by.set(key, { pointId: eventPointIdOf(a), name: a.eventPointName ?? a.eventSourceName ?? key, alarms: [a] });
    }
    groupCache.set(list, (out = [...by.values()]));
  }
  return out;
};

/** Whom an alarm may be forwarded to (null until read). */
export const selectForwardTargets = (s: AlarmsSnapshot) => s.context.targets;
/** Which command runs now (the dialogs show their own spinner). */
export const selectRunningCommand = (s: AlarmsSnapshot) => (typeof s.value === 'object' ? (s.value as { command: string }).command : 'ready');
