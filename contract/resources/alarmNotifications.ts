// Alarm notifications [0.4.7.5] (issue 12): who is told of which alarms. Each one sends every alarm raised in the
// client with a priority up to its limit (1 is the most urgent) to a web hook, as an `alarm.notification` delivery
// (signed, retried and listed in the web hook's history like any other), whatever events that web hook subscribes
// to, and/or to the consoles of an operator group's members (`/notice/alarm`: a toast that stays until seen for
// priority 1, and a desktop notification). The web-hook delivery is written by the database in the transaction that
// raises the alarm (migration 087), so a restart loses none; a console notice goes to whoever is signed in then.
import { PRIV } from '../privileges';
import { defineResource, number, ref, requiredWhen, switchField, text } from './define';

export const alarmNotificationsResource = defineResource({
  name: 'alarmNotifications',
  table: 'alarm_notifications',
  api: '/event/manage/alarm-notifications',
  route: '/configure/alarm-notification',
  section: 'configure',
  label: { one: 'Alarm notification', many: 'Alarm notifications' },
  icon: 'envelope',
  privileges: {
    view: PRIV.alarmGroups.notifications,
    add: PRIV.alarmGroups.notifications,
    edit: PRIV.alarmGroups.notifications,
    delete: PRIV.alarmGroups.notifications,
  },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another alarm notification' }),
    maxPriority: number({
      label: 'Priorities up to',
      min: 1,
      max: 100,
      required: true,
      default: 1,
      sort: true,
      help: '1 is the most urgent: 2 sends priorities 1 and 2',
    }),
    webHookId: ref('webHooks', { label: 'Web hook', filter: true, help: 'Empty: no web hook (an operator group is told instead)' }),
    webHookName: text({ label: 'Web hook', max: 100, virtual: true, readOnly: true, from: 'webHookId', sort: true }),
    operatorGroupId: ref('operatorGroups', {
      label: 'Operator group',
      filter: true,
      help: 'Its members signed in now see each alarm at once (those who may see alarms)',
    }),
    operatorGroupName: text({ label: 'Operator group', max: 100, virtual: true, readOnly: true, from: 'operatorGroupId', sort: true }),
    enabled: switchField({ label: 'On', default: true }),
    note: text({ max: 500, widget: 'textarea', wide: true, search: true, placeholder: 'Night shift supervisor on call' }),
  },
  rules: [requiredWhen('webHookId', 'operatorGroupId', [''], 'is required unless an operator group is told')],
  list: { title: ['name'], columns: ['maxPriority', 'webHookName', 'operatorGroupName', 'enabled', 'note', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Alarm notification',
      description: "Every alarm raised with a priority up to this one is sent at once to the web hook, the operator group's consoles, or both.",
      fields: ['name', 'maxPriority', 'webHookId', 'operatorGroupId', 'enabled', 'note'],
    },
  ],
  export: ['csv', 'ndjson'],
});
