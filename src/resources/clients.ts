import { API, Client, ClientInput, PRIV } from '../../contract';
import { defineResource } from './defineResource';
import { showDateTime } from '../ui/time';

export const clients = defineResource<Client>({
  name: 'clients',
  title: 'Clients',
  singular: 'Client',
  path: '/manage/clients',
  privileges: PRIV.clients,
  schema: Client,
  input: ClientInput,
  api: API.clients,
  primary: { title: 'Client', field: 'name', value: (r) => r.name, width: 300 },
  columns: [
    { field: 'code', title: 'Code', width: 120, sortable: true },
    { field: 'timezone', title: 'Time zone', width: 180, sortable: true },
    { field: 'contactEmail', title: 'Contact', width: 220, sortable: false, value: (r) => r.contactEmail ?? '' },
    { field: 'active', title: 'Active', width: 80, sortable: true, value: (r) => (r.active ? 'Yes' : 'No') },
    { field: 'updatedAt', title: 'Updated', width: 190, sortable: true, value: (r) => showDateTime(r.updatedAt), zoned: true },
  ],
  defaultSort: [{ field: 'name', dir: 'asc' }],
  filterPlaceholder: 'Search clients…',
  form: [
    {
      title: 'Client',
      fields: [
        { name: 'name', label: 'Name', required: true },
        { name: 'code', label: 'Code', required: true, upper: true, help: '2–20 capitals, digits, dash or underscore' },
        { name: 'timezone', label: 'Time zone', kind: 'select', source: 'timezones', required: true },
        { name: 'contactEmail', label: 'Contact email', kind: 'email' },
        { name: 'address', label: 'Address', kind: 'textarea', wide: true },
        { name: 'active', label: 'Active', kind: 'switch' },
      ],
    },
  ],
  toForm: (r) => ({ name: r.name, code: r.code, timezone: r.timezone, contactEmail: r.contactEmail ?? '', address: r.address ?? '', active: r.active }),
});
