// What holds in each state of the alarms machine (./alarms.ts), written apart from its transitions and read by nothing
// in it: its `meta`. The model tests check them at every step of every generated path (model-tests/harness.ts).
import { ALARM_FLOOD_WINDOW_MS, MAX_ALARM_NOTICES, sameId, type Event } from '../contract';
import type { AlarmsContext } from './alarms.context';
import { RAISINGS_MAX } from './alarms.management';

type Held = { context: AlarmsContext; children: Record<string, unknown> };
const unacked = (c: AlarmsContext, id: Event['id']) => c.alarms.some((a) => sameId(a.id, id) && !a.acknowledge);
const running = (s: Held, ...ids: string[]) => ids.filter((id) => id in s.children);
const COMMANDS = ['acknowledge', 'process', 'forward', 'shelve', 'loadForwardTargets'];
/** Exactly this one of the commands runs. */
const only = (id: string) => (s: Held) => running(s, ...COMMANDS).join() === id;

export const invariants = {
  machine: {
    'the open list holds alerts only, each id once': ({ context: c }: Held) =>
      c.alarms.every((a, i) => a.alert && c.alarms.findIndex((b) => sameId(a.id, b.id)) === i),
    'a notice shows only open alarms nobody acknowledged, and none is empty': ({ context: c }: Held) =>
      c.board.notices.every((n) => n.alarmIds.length > 0 && n.alarmIds.every((id) => unacked(c, id))),
    [`at most ${MAX_ALARM_NOTICES} notices, each id once and counted`]: ({ context: { board: b } }: Held) =>
      b.notices.length <= MAX_ALARM_NOTICES && new Set(b.notices.map((n) => n.id)).size === b.notices.length && b.notices.every((n) => n.version <= b.seq),
    'an alarm waits for its notice only while open and unacknowledged': ({ context: c }: Held) => c.gathered.every((a) => unacked(c, a.id)),
    // issue 50 (ISA-18.2 shelving): a shelved source raises nothing on screen
    'no alarm of a shelved source is on the open list': ({ context: c }: Held) => c.alarms.every((a) => !a.shelved),
    'the raisings kept are each alarm once, within the flood window of the newest, oldest first and bounded': ({ context: { raisings: r } }: Held) => {
      const t = r.map((x) => Date.parse(x.time));
      return (
        r.length <= RAISINGS_MAX &&
        new Set(r.map((x) => String(x.id))).size === r.length &&
        t.every((x, i) => i === 0 || x >= t[i - 1]) &&
        t.every((x) => x > Math.max(...t) - ALARM_FLOOD_WINDOW_MS)
      );
    },
    'an escalation step is a positive count': ({ context: c }: Held) => c.alarms.every((a) => a.escalationStep === undefined || a.escalationStep >= 1),
  },
  live: { 'no read of the open list runs, nothing is buffered': (s: Held) => !('loadAlarms' in s.children) && !s.context.pending.length },
  syncing: {
    'the open list is read; facts are buffered, never a count': (s: Held) =>
      'loadAlarms' in s.children && s.context.pending.every((f) => f.type !== 'alarm.counted'),
  },
  ready: { 'no command runs': (s: Held) => running(s, ...COMMANDS).length === 0 },
  acknowledging: { 'one acknowledge runs, nothing else': only('acknowledge') },
  processing: { 'one process runs, nothing else': only('process') },
  forwarding: { 'one forward runs, nothing else': only('forward') },
  shelving: { 'one shelving runs, nothing else': only('shelve') },
  readingTargets: { 'whom to forward to is read, nothing else runs': only('loadForwardTargets') },
};
