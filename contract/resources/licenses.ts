// Licenses [0.3.2.0 view, 0.3.2.2 edit]: a tenant's licensed modules and seat limits, from a signed key (verified
// by the server, server/resources/licenses.ts), with live usage beside each limit. Editing is pasting a new key.
import { API } from '../api';
import { date, defineResource, number, text } from './define';

export const SEATS = ['identities', 'doors', 'readers', 'operators'] as const;
export type Seat = (typeof SEATS)[number];

export const licensesResource = defineResource({
  name: 'licenses',
  table: 'licenses',
  api: API.licenses,
  route: '/manage/licenses',
  section: 'manage',
  label: { one: 'License', many: 'Licenses' },
  icon: 'key',
  privileges: { view: '0.3.2.0', edit: '0.3.2.2' },
  scope: { tenant: true },
  timestamps: true,
  // list, get and edit are server/resources/licenses.ts (a key is verified, never typed field by field; no add)
  routes: false,
  fields: {
    licenseKey: text({ label: 'License key', max: 4000, required: true, widget: 'textarea', wide: true, inList: false }),
    licensee: text({ max: 200, required: true, readOnly: true, sort: true }),
    modules: text({ max: 1000, required: true, readOnly: true }),
    identitySeats: number({ label: 'Identity seats', required: true, readOnly: true }),
    identitiesUsed: number({ label: 'Identities used', readOnly: true, virtual: true }),
    doorSeats: number({ label: 'Door seats', required: true, readOnly: true }),
    doorsUsed: number({ label: 'Doors used', readOnly: true, virtual: true }),
    readerSeats: number({ label: 'Reader seats', required: true, readOnly: true }),
    readersUsed: number({ label: 'Readers used', readOnly: true, virtual: true }),
    operatorSeats: number({ label: 'Operator seats', required: true, readOnly: true }),
    operatorsUsed: number({ label: 'Operators used', readOnly: true, virtual: true }),
    validTo: date({ required: true, readOnly: true, sort: true }),
  },
  list: { title: ['licensee'], columns: ['modules', 'identitiesUsed', 'doorsUsed', 'readersUsed', 'operatorsUsed', 'validTo'], sort: ['licensee', 'asc'] },
  form: [
    {
      title: 'License key',
      description: 'Paste the key you were issued; it is checked against its signature before it replaces the current one.',
      fields: ['licenseKey'],
    },
  ],
});
