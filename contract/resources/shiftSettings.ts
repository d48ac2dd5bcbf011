// Shift settings [0.2.6.2] (issue 31, the shift handover): the client's shift boundaries, local times of day in the
// client's zone at which a shift ends and the next begins (contract/handover.ts). One row per client, made with the
// default (07:00, 15:00, 23:00) when first read; changes are audited by the catalogue like any form.
import { PRIV } from '../privileges';
import { SHIFT_BOUNDARIES_PATTERN } from '../handover';
import { defineResource, text } from './define';

export const shiftSettingsResource = defineResource({
  name: 'shiftSettings',
  table: 'shift_settings',
  api: '/event/manage/shift-settings',
  route: '/configure/shift-settings',
  section: 'configure',
  label: { one: 'Shift settings', many: 'Shift settings' },
  icon: 'time',
  privileges: { view: PRIV.handover.settings, edit: PRIV.handover.settings },
  scope: { tenant: true },
  singleton: true,
  timestamps: true,
  fields: {
    boundaries: text({
      label: 'Shifts end at',
      max: 100,
      required: true,
      pattern: SHIFT_BOUNDARIES_PATTERN,
      help: 'Times of day in the client\u2019s zone, 24-hour, separated by commas (one to twelve), e.g. 07:00, 15:00, 23:00',
      placeholder: '06:00, 14:00, 22:00',
    }),
  },
  list: { title: ['boundaries'], columns: [], sort: ['boundaries', 'asc'] },
  form: [
    {
      title: 'Shifts',
      description: 'At each of these times the shift that ended is handed over: the next operator sees its digest on the dashboard and acknowledges it.',
      fields: ['boundaries'],
    },
  ],
});
