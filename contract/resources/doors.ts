// Doors [0.4.5.x] as a reference target (access groups, interlocks) and for the drift test: the door's access
// settings (mode, entry and exit zone, card format; issue 12). The doors list and commands are still the
// hand-written server/http/doors.ts.
import { PRIV } from '../privileges';
import { choice, defineResource, number, ref, switchField, text } from './define';

export const DOOR_MODES = [
  { value: 'card', label: 'Card' },
  { value: 'card-pin', label: 'Card and PIN' },
  { value: 'unlocked', label: 'Unlocked' },
  { value: 'locked-down', label: 'Locked down' },
] as const;

/** What a door of a Gatehouse Edge controller does once the edge has been offline longer than its snapshot may be
 *  trusted (issue 47, contract/edge.ts EDGE_DEGRADED_POLICIES). */
export const DOOR_DEGRADED_POLICIES = [
  { value: 'keep', label: 'Keep deciding from its last rules' },
  { value: 'facility', label: 'Facility code only' },
  { value: 'locked', label: 'Locked' },
] as const;

export const doorsResource = defineResource({
  name: 'doors',
  table: 'doors',
  api: '/event/manage/doors',
  route: '/configure/doors',
  section: 'configure',
  label: { one: 'Door', many: 'Doors' },
  icon: 'key-enter',
  privileges: { view: PRIV.doors.view, add: PRIV.doors.add, edit: PRIV.doors.edit, delete: PRIV.doors.delete },
  scope: { tenant: true, division: 'divisionId' },
  routes: { list: false }, // the list is the live doors screen's (server/http/doors.ts)
  fields: {
    name: text({ max: 200, required: true, search: true, sort: true }),
    divisionId: ref('divisions', { label: 'Division', required: true }),
    mode: choice(DOOR_MODES, { required: true, default: 'card' }),
    entryZoneId: ref('accessZones', { label: 'Entry zone' }),
    exitZoneId: ref('accessZones', { label: 'Exit zone' }),
    cardFormatId: ref('cardFormats', { label: 'Card format' }),
    // issue 12: unlocked on a schedule (a shop front in opening hours), optionally only once the first person is in
    unlockScheduleId: ref('schedules', { label: 'Unlocked while', help: 'The door is unlocked while this schedule is open, and locked again when it closes' }),
    firstPersonIn: switchField({
      label: 'Only after the first person is in',
      default: false,
      help: 'It stays locked in the schedule until somebody is let in with a valid card',
    }),
    degradedPolicy: choice(DOOR_DEGRADED_POLICIES, {
      label: 'Offline too long',
      required: true,
      default: 'keep',
      help: 'What the door does when its Gatehouse Edge controller has been cut off from the server for longer than its client allows (7 days unless Central properties say otherwise)',
    }),
    // issue 47: the edge reports a door open longer than this after a grant or a request to exit as held open (6002)
    heldOpenSeconds: number({
      label: 'Held open after (seconds)',
      min: 1,
      max: 3600,
      required: true,
      default: 30,
      help: 'A door still open this long after a card or the exit button let someone through raises Door held open',
    }),
  },
  list: { title: ['name'], columns: ['mode', 'entryZoneId', 'exitZoneId'], sort: ['name', 'asc'] },
  form: [
    { title: 'Door', fields: ['name', 'divisionId', 'mode'] },
    { title: 'Unlock schedule', description: 'Leave empty for a door that stays locked and opens per card.', fields: ['unlockScheduleId', 'firstPersonIn'] },
    {
      title: 'Zones and cards',
      description: 'The zone a swipe at the entry reader leads into and the exit reader leads out to (anti-passback), and the card format its readers decode.',
      fields: ['entryZoneId', 'exitZoneId', 'cardFormatId'],
    },
    {
      title: 'Gatehouse Edge',
      description: 'A door of an edge controller decides at the door, also while the server is out of reach.',
      fields: ['degradedPolicy', 'heldOpenSeconds'],
    },
  ],
});
