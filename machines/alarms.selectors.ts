// What views read from the alarms actor: open alarms sorted by priority then time, counts.
import { compareAlarms, type Event } from '../contract';
import type { AlarmsSnapshot } from './alarms';

const sortedCache = new WeakMap<readonly Event[], Event[]>();
/** Open alarms, most urgent first (priority 1 before 2), newest first within a priority. Stable per list. */
export const selectOpenAlarms = (s: AlarmsSnapshot): Event[] => {
  const list = s.context.alarms;
  let sorted = sortedCache.get(list);
  if (!sorted) sortedCache.set(list, (sorted = [...list].sort(compareAlarms)));
  return sorted;
};
export const selectAlarmCount = (s: AlarmsSnapshot) => s.context.alarms.length;
/** Whether the open alarms are known: the feed has had its first list from the server since the session began (until
 *  then an empty list means "not read yet", never "none open"). */
export const selectAlarmsKnown = (s: AlarmsSnapshot) => s.context.baselined;
export const selectUnacknowledgedCount = (s: AlarmsSnapshot) => s.context.alarms.filter((a) => !a.acknowledge).length;
/** The count the server last broadcast on /alarmcount; the local count when none was heard. */
export const selectServerAlarmCount = (s: AlarmsSnapshot) => s.context.serverCount ?? s.context.alarms.length;
export const selectIsSyncing = (s: AlarmsSnapshot) => s.hasTag('syncing');
export const selectIsCommandBusy = (s: AlarmsSnapshot) => s.hasTag('busy');
export const selectAlarmError = (s: AlarmsSnapshot) => s.context.error;

/** The alarm notices the shell shows (issue 10), most urgent first. */
export const selectAlarmNotices = (s: AlarmsSnapshot) => s.context.board.notices;

const byPriorityCache = new WeakMap<readonly Event[], Array<{ priority: number; count: number }>>();
/** Open alarms counted per priority, most urgent first (the dashboard's chart). Stable per list. */
export const selectOpenByPriority = (s: AlarmsSnapshot): Array<{ priority: number; count: number }> => {
  const list = s.context.alarms;
  let out = byPriorityCache.get(list);
  if (!out) {
    const m = new Map<number, number>();
    for (const a of list) m.set(a.priority, (m.get(a.priority) ?? 0) + 1);
    out = [...m].map(([priority, count]) => ({ priority, count })).sort((a, b) => a.priority - b.priority);
    byPriorityCache.set(list, out);
  }
  return out;
};

/** What an operator may do to one open alarm now, asked of the machine (`snapshot.can`). */
export interface AlarmCommands {
  acknowledge: boolean;
  process: boolean;
}
const NONE: AlarmCommands = { acknowledge: false, process: false };

/** Per open alarm (by its id as a string), which of its buttons the machine would take now. */
export const selectAlarmCommands = (s: AlarmsSnapshot): ReadonlyMap<string, AlarmCommands> =>
  new Map(
    s.context.alarms.map((a) => [
      String(a.id),
      { acknowledge: s.can({ type: 'alarm.acknowledge', id: a.id }), process: s.can({ type: 'alarm.process', id: a.id, note: 'x' }) },
    ]),
  );

/** The commands of one alarm from `selectAlarmCommands` (none for an alarm it does not know). */
export const commandsOf = (commands: ReadonlyMap<string, AlarmCommands>, id: Event['id']): AlarmCommands => commands.get(String(id)) ?? NONE;

/** `useSelector`'s comparison for `selectAlarmCommands`: the same alarms with the same buttons (a view re-renders on a change only). */
export function sameAlarmCommands(a: ReadonlyMap<string, AlarmCommands>, b: ReadonlyMap<string, AlarmCommands>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, c] of a) {
    const d = b.get(id);
    if (!d || d.acknowledge !== c.acknowledge || d.process !== c.process) return false;
  }
  return true;
}
