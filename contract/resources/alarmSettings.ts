// Alarm settings [0.4.7.6] (issue 31): the client's target times for handling an alarm, per priority — how soon it
// should be acknowledged and how soon processed. The alarm handling report (contract/alarmHandling.ts) counts the
// alarms past them. One row per client, made with the defaults when first read (P1: 1 min to acknowledge, 15 to
// process; P2: 5 / 60; P3: 15 / 240; P4 and beyond: 60 / 1440). Changes are audited by the catalogue like any form.
import { PRIV } from '../privileges';
import { ALARM_TARGET_MAX_MINUTES, DEFAULT_ALARM_TARGETS } from '../alarmHandling';
import { defineResource, number, ref } from './define';

const target = (kind: 'ack' | 'process', p: 1 | 2 | 3 | 4) =>
  number({
    label: `${kind === 'ack' ? 'Acknowledge' : 'Process'} P${p}${p === 4 ? ' and beyond' : ''} within (minutes)`,
    min: 1,
    max: ALARM_TARGET_MAX_MINUTES,
    required: true,
    default: DEFAULT_ALARM_TARGETS[kind][p],
    help: `From 1 to ${ALARM_TARGET_MAX_MINUTES} (a week)`,
  });

export const alarmSettingsResource = defineResource({
  name: 'alarmSettings',
  table: 'alarm_settings',
  api: '/event/manage/alarm-settings',
  route: '/configure/alarm-settings',
  section: 'configure',
  label: { one: 'Alarm settings', many: 'Alarm settings' },
  icon: 'time',
  privileges: { view: PRIV.alarmSettings, edit: PRIV.alarmSettings },
  scope: { tenant: true },
  singleton: true,
  timestamps: true,
  fields: {
    ackP1Minutes: target('ack', 1),
    processP1Minutes: target('process', 1),
    ackP2Minutes: target('ack', 2),
    processP2Minutes: target('process', 2),
    ackP3Minutes: target('ack', 3),
    processP3Minutes: target('process', 3),
    ackP4Minutes: target('ack', 4),
    processP4Minutes: target('process', 4),
    // issue 50 (ISA-18.2): an alarm nobody acknowledged within its target goes to the first group, another target
    // later to the second, then the third (server/alarms/management.ts); empty: no escalation
    escalateGroup1Id: ref('operatorGroups', {
      label: 'First escalation group',
      onDelete: 'set-null',
      help: 'Told when an alarm is not acknowledged within its target',
    }),
    escalateGroup2Id: ref('operatorGroups', { label: 'Second escalation group', onDelete: 'set-null', help: 'Told one more target later' }),
    escalateGroup3Id: ref('operatorGroups', { label: 'Third escalation group', onDelete: 'set-null', help: 'Told one more target later' }),
  },
  list: { title: ['ackP1Minutes'], columns: [], sort: ['ackP1Minutes', 'asc'] },
  form: [
    {
      title: 'Target times',
      description: 'How soon an alarm of each priority should be acknowledged and processed; the alarm handling report counts those later.',
      fields: ['ackP1Minutes', 'processP1Minutes', 'ackP2Minutes', 'processP2Minutes', 'ackP3Minutes', 'processP3Minutes', 'ackP4Minutes', 'processP4Minutes'],
    },
    {
      title: 'Escalation',
      description: 'An alarm nobody acknowledged within its target goes to these operator groups, one after the other, a target apart.',
      fields: ['escalateGroup1Id', 'escalateGroup2Id', 'escalateGroup3Id'],
    },
  ],
});
