// Alarm shelvings (issue 50, ISA-18.2 "shelving"): every time an alarm source was kept off the consoles, with its
// reason, who shelved it, until when, and how it ended (by itself, or ended sooner by an operator: the row's End
// action, POST …/:id/end [0.2.1.2]). Read-only otherwise: a shelving begins on the Alarms screen (POST
// /event/manage/alarms/shelve, server/alarms/routes.ts). Whoever sees the alarms sees the shelvings.
import { PRIV } from '../privileges';
import { SHELVE_MAX_MINUTES, SHELVE_REASON_MAX } from '../alarmManagement';
import { choice, defineResource, number, text, timestamp } from './define';

export const SHELVING_STATES = [
  { value: 'shelved', label: 'Shelved' },
  { value: 'expired', label: 'Ended by itself' },
  { value: 'ended', label: 'Ended by an operator' },
] as const;

export const alarmShelvingsResource = defineResource({
  name: 'alarmShelvings',
  table: 'alarm_shelvings',
  api: '/event/manage/alarm-shelvings',
  route: '/monitor/alarm-shelvings',
  section: 'monitor',
  label: { one: 'Alarm shelving', many: 'Alarm shelvings' },
  icon: 'archive',
  privileges: { view: PRIV.alarms.view },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    pointName: text({ label: 'Source', max: 200, readOnly: true, search: true, sort: true }),
    eventPointId: text({ label: 'Source id', max: 100, required: true, readOnly: true, search: true, inList: false }),
    reason: text({ max: SHELVE_REASON_MAX, required: true, readOnly: true, search: true }),
    minutes: number({ label: 'For (minutes)', min: 1, max: SHELVE_MAX_MINUTES, required: true, readOnly: true, sort: true }),
    shelvedBy: text({ label: 'Shelved by', max: 200, required: true, readOnly: true, search: true, sort: true }),
    shelvedAt: timestamp({ label: 'Shelved at', required: true, sort: true }),
    until: timestamp({ label: 'Until', required: true, sort: true }),
    state: choice(SHELVING_STATES, { label: 'State', virtual: true, readOnly: true, filter: true }),
    endedAt: timestamp({ label: 'Ended at', sort: true }),
    endedBy: text({ label: 'Ended by', max: 200, readOnly: true }),
  },
  list: { title: ['pointName'], columns: ['state', 'reason', 'shelvedBy', 'shelvedAt', 'until', 'endedAt', 'endedBy'], sort: ['shelvedAt', 'desc'] },
  form: [],
  export: ['csv', 'ndjson'],
  screens: {
    rowActions: [{ action: 'end', label: 'End shelving', privilege: PRIV.alarms.shelve, icon: 'undo', done: 'The shelving of {name} ended' }],
  },
});
