// Elevator masking [0.4.6.x] (issue 12): floors of an elevator that need no card while a schedule is open (the
// lobby and the canteen in office hours); outside it, and on every other floor, the car's reader asks for a card
// and the access decision of the reader's door decides. The floors are written as a list of numbers and ranges
// ("1-3, 5"). A floor request (the simulator's `elevator.floor`) is an event saying which it was.
import { defineResource, ref, text } from './define';
import { fill, type Sentence } from '../messages';

/** "1-3, 5, 7-8": floor numbers 0–199 and ranges, comma separated. */
export const FLOOR_LIST = /^\s*\d{1,3}(\s*-\s*\d{1,3})?(\s*,\s*\d{1,3}(\s*-\s*\d{1,3})?)*\s*$/;
export const MAX_FLOOR = 199;

/** The floors of a list ("1-3, 5" → 1, 2, 3, 5), or the problem with it. */
export function parseFloors(list: string): { floors: Set<number> } | { problem: Sentence } {
  if (!FLOOR_LIST.test(list)) return { problem: fill('floors.notList', 'must be floor numbers and ranges, e.g. 1-3, 5', {}) };
  const floors = new Set<number>();
  for (const part of list.split(',')) {
    const [a, b = a] = part.split('-').map((x) => Number(x.trim()));
    if (a > MAX_FLOOR || b > MAX_FLOOR) return { problem: fill('floors.aboveHighest', 'must name floors up to {max}', { max: MAX_FLOOR }) };
    if (b < a) return { problem: fill('floors.rangeBackwards', 'has a range that runs backwards ({range})', { range: `${a}-${b}` }) };
    for (let f = a; f <= b; f++) floors.add(f);
  }
  return { floors };
}

export const elevatorMasksResource = defineResource({
  name: 'elevatorMasks',
  table: 'elevator_masks',
  api: '/event/manage/elevator-masks',
  route: '/configure/elevator-masking',
  section: 'configure',
  label: { one: 'Elevator masking', many: 'Elevator masking' },
  icon: 'double-caret-vertical',
  privileges: { view: '0.4.6.0', add: '0.4.6.1', edit: '0.4.6.2', delete: '0.4.6.3' },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({
      max: 100,
      required: true,
      search: true,
      sort: true,
      unique: 'tenant',
      uniqueMessage: 'is already the name of another elevator masking',
      placeholder: 'Lobby floors in office hours',
    }),
    readerId: ref('cardReaders', { label: 'Elevator reader', required: true, filter: true, help: 'The card reader in the elevator car' }),
    readerName: text({ label: 'Elevator reader', max: 200, virtual: true, readOnly: true, from: 'readerId', sort: true }),
    floors: text({ label: 'Free floors', max: 200, required: true, pattern: FLOOR_LIST, help: 'Floor numbers and ranges, e.g. 1-3, 5', placeholder: '0-2, 5' }),
    scheduleId: ref('schedules', { label: 'While', required: true, help: 'The floors are free while this schedule is open' }),
    description: text({ max: 500, widget: 'textarea', wide: true, search: true }),
  },
  list: { title: ['name'], columns: ['readerName', 'floors', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Elevator masking',
      description: 'These floors need no card while the schedule is open; any other floor, or any floor outside it, asks for a card.',
      fields: ['name', 'readerId', 'floors', 'scheduleId', 'description'],
    },
  ],
  export: ['csv', 'ndjson'],
});
