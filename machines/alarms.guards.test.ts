// Issue 51: the rules of the alarm console's commands of issue 50, written here as rules (not read from the machine):
// a source is shelved only with a point, a positive number of minutes and a reason that is not blank; an alarm is
// forwarded only to exactly one operator or group, with a note, and only an alarm this console has open. Anything else
// leaves the console ready and starts nothing. The 13:08 mutation run of the guards (machines/alarms.ts 156-166) left
// every check of `shelvable` and the one-target check of `forwardable` alive: the model offers only a few such events.
import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { forcedDoorAlarm } from '../model-tests/events';
import { alarmsMachine, type AlarmsSnapshot } from './alarms';

const open = forcedDoorAlarm({ id: 2, eventPointId: 20, eventSourceId: 20, eventPointName: 'Loading bay' });
/** The console with one open alarm, ready for a command. */
function ready(): AlarmsSnapshot {
  const [start] = initialTransition(alarmsMachine);
  const [s] = transition(alarmsMachine, start, { type: 'alarms.synced', alarms: [open] } as never);
  expect(s.matches({ command: 'ready' })).toBe(true);
  expect(s.context.alarms.map((a) => a.id)).toEqual([2]);
  return s as AlarmsSnapshot;
}
const after = (event: Record<string, unknown>) => transition(alarmsMachine, ready(), event as never)[0];
const commandOf = (s: AlarmsSnapshot) => (s.value as { command: string }).command;

describe('alarm console commands (issue 50): what is refused stays ready', () => {
  it('shelves a source only with a point, minutes above zero and a reason that is not blank', () => {
    const good = { type: 'source.shelve', pointId: '20', minutes: 30, reason: 'Contractor on site' };
    expect(commandOf(after(good))).toBe('shelving');
    expect(commandOf(after({ ...good, minutes: 1 }))).toBe('shelving');
    for (const refused of [
      { ...good, pointId: '' },
      { ...good, minutes: 0 },
      { ...good, minutes: -15 },
      { ...good, reason: '' },
      { ...good, reason: '   ' },
    ])
      expect(commandOf(after(refused)), JSON.stringify(refused)).toBe('ready');
  });

  it('forwards an open alarm only to exactly one operator or group, with a note', () => {
    const note = 'Camera 4 shows someone';
    expect(commandOf(after({ type: 'alarm.forward', id: 2, userId: 7, note }))).toBe('forwarding');
    expect(commandOf(after({ type: 'alarm.forward', id: 2, groupId: 3, note }))).toBe('forwarding');
    for (const refused of [
      { type: 'alarm.forward', id: 2, note }, // no one to forward to
      { type: 'alarm.forward', id: 2, userId: null, groupId: null, note },
      { type: 'alarm.forward', id: 2, userId: 7, groupId: 3, note }, // two targets
      { type: 'alarm.forward', id: 2, userId: 7, note: '  ' },
      { type: 'alarm.forward', id: 9, userId: 7, note }, // not an alarm this console has open
    ])
      expect(commandOf(after(refused)), JSON.stringify(refused)).toBe('ready');
  });
});
