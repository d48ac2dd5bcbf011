// Overrides [0.4.4.x] (issue 12): doors held in a mode for a window — unlocked for an open day, locked for an
// evacuation drill, card and PIN for a night — that revert by themselves. While an override is in force the access
// engine decides with its mode (a lockdown still outranks it); an unlocking override unlocks the doors at its start
// and locks them again at its end (server/access/overrides.ts). Where two overlap on a door, the one that started
// last wins. An override in force is not deleted: set its end to now and it reverts first.
import { PRIV } from '../privileges';
import { after, choice, datetime, defineResource, refs, text } from './define';

export const OVERRIDE_MODES = [
  { value: 'unlocked', label: 'Held unlocked' },
  { value: 'locked', label: 'Held locked' },
  { value: 'card-pin', label: 'Card and PIN' },
  { value: 'card', label: 'Card only' },
] as const;
export const OVERRIDE_STATES = [
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'active', label: 'In force' },
  { value: 'ended', label: 'Ended' },
] as const;

export const overridesResource = defineResource({
  name: 'overrides',
  table: 'door_overrides',
  api: '/event/manage/overrides',
  route: '/configure/override',
  section: 'configure',
  label: { one: 'Override', many: 'Overrides' },
  icon: 'unlock',
  privileges: PRIV.overrides,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true }),
    mode: choice(OVERRIDE_MODES, { required: true, default: 'unlocked', filter: true, sort: true }),
    startsAt: datetime({ label: 'From', required: true, sort: true, fromNow: 0 }),
    endsAt: datetime({ label: 'Until', required: true, sort: true, fromNow: 60 }),
    doorIds: refs('doors', {
      label: 'Doors',
      through: { table: 'door_override_doors', from: 'override_id', to: 'door_id' },
      maxItems: 500,
      onDelete: 'cascade',
    }),
    reason: text({ max: 500, widget: 'textarea', wide: true, search: true }),
    state: choice(OVERRIDE_STATES, { label: 'State', readOnly: true, virtual: true }),
  },
  rules: [after('endsAt', 'startsAt', 'must be after the start')],
  list: { title: ['name'], columns: ['state', 'mode', 'startsAt', 'endsAt', 'doorIds'], sort: ['startsAt', 'desc'] },
  form: [
    {
      title: 'Override',
      description: 'The doors are held in this mode from the start to the end, then go back to their own mode by themselves.',
      fields: ['name', 'mode', 'startsAt', 'endsAt'],
    },
    { title: 'Doors', fields: ['doorIds', 'reason'] },
  ],
  export: ['csv', 'ndjson'],
});
