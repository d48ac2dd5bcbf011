// Operator groups [0.3.3.x] (issue 11): operators of a client grouped, so the roles granted to the group — each in
// one division and everything below it, or in the whole client — apply to every member. The server computes a
// user's grants as their own together with their groups' (server/db/queries/grants.ts).
import { API } from '../api';
import { PRIV } from '../privileges';
import { children, defineResource, ref, refs, text } from './define';

export const operatorGroupsResource = defineResource({
  name: 'operatorGroups',
  table: 'operator_groups',
  api: API.operatorGroups,
  route: '/manage/operator-groups',
  section: 'manage',
  label: { one: 'Operator group', many: 'Operator groups' },
  icon: 'people',
  privileges: PRIV.operatorGroups,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another group' }),
    description: text({ max: 500, widget: 'textarea', wide: true, search: true }),
    members: refs('operators', { label: 'Members', through: { table: 'operator_group_members', from: 'group_id', to: 'user_id' } }),
    grants: children({
      label: 'Roles',
      table: 'operator_group_grants',
      parent: 'group_id',
      itemLabel: 'Role',
      max: 50,
      fields: {
        roleId: ref('roles', { label: 'Role', required: true }),
        divisionId: ref('divisions', { label: 'Division', help: 'Empty: every division of the client' }),
      },
    }),
  },
  list: { title: ['name'], columns: ['description', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    { title: 'Group', fields: ['name', 'description'] },
    { title: 'Members', description: 'Every member holds the roles below.', fields: ['members'] },
    { title: 'Roles', description: 'Each role in one division (and the divisions below it), or in every division.', fields: ['grants'] },
  ],
  export: ['csv', 'ndjson'],
});
