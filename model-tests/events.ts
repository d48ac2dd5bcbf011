// Events the alarm tests share: a forced door raised as an alarm, open (nobody has acknowledged or processed it), with
// what a test changes over it.
import type { Event } from '../contract';

/** A forced door's alarm at the front door (point and source 10), open, priority 1, of 2024-05-01 10:00 UTC. */
export const forcedDoorAlarm = (over: Partial<Event> & Pick<Event, 'id'>): Event => ({
  eventCode: 6001,
  eventPointId: 10,
  eventSourceId: 10,
  eventPointName: 'Front door',
  eventSourceName: null,
  message: 'Door forced open',
  alert: true,
  acknowledge: false,
  process: false,
  eventPoint: [],
  time: '2024-05-01T10:00:00Z',
  priority: 1,
  ...over,
});
