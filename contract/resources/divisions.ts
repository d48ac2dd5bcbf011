// Divisions [0.4.9.x] (issue 12): the tree that scopes identities, doors and grants. Served by the catalogue (get,
// add, edit, delete, options, export) except the list: the Divisions screen draws the whole visible tree at once
// from the hand-written server/http/divisions.ts (it also feeds every form's division picker).
// Rules (server/resources/divisions.ts): a division goes inside another one the user may add in (left empty: under
// the top division); a move is an edit of the parent, never into itself or one of its own divisions; the top
// division stays at the top; a division still used (identities, doors, controllers, divisions inside it, grants,
// role ticks, templates) cannot be deleted. Grants follow the tree: a grant on a division reaches what is inside it,
// wherever it moves (server/auth/access.ts reads the tree on the next request).
// 0.4.9.3 "Delete divisions" is ours: the specification lists view, add and edit only.
import { API } from '../api';
import { PRIV } from '../privileges';
import { defineResource, ref, text } from './define';

export const divisionsResource = defineResource({
  name: 'divisions',
  table: 'divisions',
  api: API.divisions,
  route: '/configure/division',
  section: 'configure',
  label: { one: 'Division', many: 'Divisions' },
  icon: 'diagram-tree',
  privileges: { view: PRIV.divisions.view, add: PRIV.divisions.add, edit: PRIV.divisions.edit, delete: PRIV.divisions.delete },
  scope: { tenant: true, division: 'id' },
  routes: { list: false },
  fields: {
    name: text({ max: 200, required: true, search: true, sort: true }),
    parentId: ref('divisions', { label: 'Inside', help: 'The division this one belongs to; empty: directly under the top division' }),
  },
  list: { title: ['name'], columns: ['parentId'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Division',
      description: 'Moving a division moves everything in it; grants on the divisions above it reach it in its new place.',
      fields: ['name', 'parentId'],
    },
  ],
  export: ['csv', 'ndjson'],
});
