// Alarm groups [0.4.7.x] (issue 12): inputs (door contacts, sensors) armed and disarmed together as one alarm zone.
// While a group is armed, an input of it that becomes active raises an intrusion alarm (event 2005, priority 1);
// while disarmed the same input is an ordinary "input active" event. Arming and disarming are named actions
// [0.4.7.4] (`POST …/:id/arm`, `…/:id/disarm`), audited, on the alarm-zone screen
// `/configure/alarm-group/{id}/{armed|disarmed}/alarm-zone` that a group's name opens from the list.
import { PRIV } from '../privileges';
import { choice, defineResource, refs, text, timestamp } from './define';

export const ARM_STATES = [
  { value: 'armed', label: 'Armed' },
  { value: 'disarmed', label: 'Disarmed' },
] as const;
export type ArmState = (typeof ARM_STATES)[number]['value'];

export const alarmGroupsResource = defineResource({
  name: 'alarmGroups',
  table: 'alarm_groups',
  api: '/event/manage/alarm-groups',
  route: '/configure/alarm-group',
  section: 'configure',
  label: { one: 'Alarm group', many: 'Alarm groups' },
  icon: 'notifications',
  privileges: { ...PRIV.alarmGroups, read: [PRIV.alarmGroups.arm] },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another alarm group' }),
    description: text({ max: 500, widget: 'textarea', wide: true, search: true }),
    inputIds: refs('inputs', {
      label: 'Inputs',
      through: { table: 'alarm_group_inputs', from: 'alarm_group_id', to: 'input_id' },
      maxItems: 500,
      onDelete: 'cascade',
    }),
    state: choice(ARM_STATES, { label: 'State', required: true, readOnly: true, filter: true, sort: true }),
    stateChangedAt: timestamp({ label: 'Since' }),
    stateChangedBy: text({ label: 'By', max: 100, readOnly: true }),
  },
  list: { title: ['name'], columns: ['state', 'stateChangedAt', 'stateChangedBy', 'inputIds', 'description'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Alarm group',
      description: 'Inputs armed and disarmed together. New groups start disarmed: arm them on the alarm zone screen.',
      fields: ['name', 'description', 'inputIds'],
    },
  ],
  export: ['csv', 'ndjson'],
  screens: { detailsRoute: '/configure/alarm-group/:id/:state/alarm-zone' },
});
