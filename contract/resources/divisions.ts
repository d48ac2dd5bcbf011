// Divisions: the tree that scopes identities, doors and grants. Declared here as a reference target (pickers,
// reference checks, the drift test); its routes are still the hand-written server/http/divisions.ts.
import { API } from '../api';
import { PRIV } from '../privileges';
import { defineResource, ref, text } from './define';

export const divisionsResource = defineResource({
  name: 'divisions', table: 'divisions', api: API.divisions, route: '/configure/division', section: 'configure',
  label: { one: 'Division', many: 'Divisions' }, icon: 'diagram-tree',
  privileges: { view: PRIV.divisions.view },
  scope: { tenant: true, division: 'id' },
  routes: false,
  fields: {
    name: text({ max: 200, required: true, search: true, sort: true }),
    parentId: ref('divisions', { label: 'Parent division' }),
  },
  list: { title: ['name'], columns: ['parentId'], sort: ['name', 'asc'] },
  form: [{ title: 'Division', fields: ['name', 'parentId'] }],
});
