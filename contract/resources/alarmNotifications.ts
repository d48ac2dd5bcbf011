// Alarm notifications [0.4.7.5] (issue 12): who is told of which alarms. Each one sends every alarm raised in the
// client with a priority up to its limit (1 is the most urgent) to a web hook, as an `alarm.notification` delivery
// (signed, retried and listed in the web hook's history like any other), whatever events that web hook subscribes
// to. The delivery is written by the database in the transaction that raises the alarm (migration 087), so a
// restart loses none.
import { PRIV } from '../privileges';
import { defineResource, number, ref, switchField, text } from './define';

export const alarmNotificationsResource = defineResource({
  name: 'alarmNotifications', table: 'alarm_notifications', api: '/event/manage/alarm-notifications', route: '/configure/alarm-notification', section: 'configure',
  label: { one: 'Alarm notification', many: 'Alarm notifications' }, icon: 'envelope',
  privileges: { view: PRIV.alarmGroups.notifications, add: PRIV.alarmGroups.notifications, edit: PRIV.alarmGroups.notifications, delete: PRIV.alarmGroups.notifications },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another alarm notification' }),
    maxPriority: number({ label: 'Priorities up to', min: 1, max: 100, required: true, default: 1, sort: true, help: '1 is the most urgent: 2 sends priorities 1 and 2' }),
    webHookId: ref('webHooks', { label: 'Web hook', required: true, filter: true }),
    webHookName: text({ label: 'Web hook', max: 100, virtual: true, readOnly: true, from: 'webHookId', sort: true }),
    enabled: switchField({ label: 'On', default: true }),
    note: text({ max: 500, widget: 'textarea', wide: true, search: true, placeholder: 'Night shift supervisor on call' }),
  },
  list: { title: ['name'], columns: ['maxPriority', 'webHookName', 'enabled', 'note', 'updatedAt'], sort: ['name', 'asc'] },
  form: [{ title: 'Alarm notification', description: 'Every alarm raised with a priority up to this one is sent to the web hook at once.', fields: ['name', 'maxPriority', 'webHookId', 'enabled', 'note'] }],
  export: ['csv', 'ndjson'],
});
