// Clients (tenants) [9.2.x]: the row is the tenant itself. Adding one is a platform privilege (server/auth/access.ts).
import { API } from '../api';
import { PRIV } from '../privileges';
import { defineResource, email, switchField, text, timezone } from './define';

export const clientsResource = defineResource({
  name: 'clients',
  table: 'clients',
  api: API.clients,
  route: '/manage/clients',
  section: 'manage',
  label: { one: 'Client', many: 'Clients' },
  icon: 'office',
  privileges: PRIV.clients,
  scope: { tenant: 'self' },
  timestamps: true,
  fields: {
    name: text({ max: 200, required: true, search: true, sort: true }),
    code: text({
      max: 20,
      min: 2,
      required: true,
      pattern: /^[A-Z0-9_-]+$/,
      upper: true,
      help: '2–20 capitals, digits, dash or underscore',
      unique: 'global',
      uniqueMessage: 'is already used by another client',
      search: true,
      sort: true,
    }),
    timezone: timezone({ label: 'Time zone', required: true, sort: true }),
    contactEmail: email({ label: 'Contact email' }),
    address: text({ max: 500, widget: 'textarea', wide: true }),
    active: switchField({ sort: true }),
  },
  list: { title: ['name'], columns: ['code', 'timezone', 'contactEmail', 'active', 'updatedAt'], sort: ['name', 'asc'] },
  form: [{ title: 'Client', fields: ['name', 'code', 'timezone', 'contactEmail', 'address', 'active'] }],
  export: ['csv', 'ndjson'],
});
