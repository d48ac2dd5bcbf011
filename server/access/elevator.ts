// Elevator floors (issue 12): is a floor free of a card now? A masking of the elevator's reader that lists the floor
// and whose schedule is open (the client's time zone, special days included) frees it; otherwise a card decides.
import { parseFloors } from '../../contract';
import type { LocalTime } from '../../access/clock';
import { scheduleOpen, type Schedule, type SpecialCalendar } from '../../access/schedule';

export interface ElevatorMask {
  id: number;
  name: string;
  floors: string;
  scheduleId: number;
}

/** The masking that frees `floor` at local time `t`, or null (a card is needed). */
export function freeingMask(
  masks: readonly ElevatorMask[],
  floor: number,
  t: LocalTime,
  schedules: ReadonlyMap<number, Schedule>,
  calendar: SpecialCalendar,
): ElevatorMask | null {
  for (const m of masks) {
    const parsed = parseFloors(m.floors);
    if ('problem' in parsed || !parsed.floors.has(floor)) continue;
    const schedule = schedules.get(m.scheduleId);
    if (schedule && scheduleOpen(schedule, t, calendar.on(t)).open) return m;
  }
  return null;
}
