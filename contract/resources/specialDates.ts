// Special dates [0.4.13.x] (issue 12): holidays, half days and closures of a tenant, once or every year, that
// override the weekly windows of every schedule on their date.
import { PRIV } from '../privileges';
import { SPECIAL_DAY_KINDS } from './schedules';
import { choice, date, defineResource, switchField, text } from './define';

export const specialDatesResource = defineResource({
  name: 'specialDates',
  table: 'special_dates',
  api: '/event/manage/special-dates',
  route: '/configure/special-date',
  section: 'configure',
  label: { one: 'Special date', many: 'Special dates' },
  icon: 'calendar',
  // the calendar [0.4.1.0] shows them too
  privileges: { ...PRIV.specialDates, list: [PRIV.calendar] },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, placeholder: 'New Year' }),
    date: date({ required: true, sort: true }),
    yearly: switchField({ label: 'Every year', default: false }),
    kind: choice(SPECIAL_DAY_KINDS, { required: true, default: 'holiday', filter: true, sort: true }),
  },
  list: { title: ['name'], columns: ['date', 'yearly', 'kind', 'updatedAt'], sort: ['date', 'asc'] },
  form: [
    { title: 'Special date', description: 'Schedules follow their windows for this kind of day on this date.', fields: ['name', 'date', 'yearly', 'kind'] },
  ],
  export: ['csv', 'ndjson'],
  screens: { whatIf: true },
});
