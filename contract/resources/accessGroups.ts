// Access groups [0.4.3.x] (issue 12): which doors, on which schedule, for which identities. Doors × schedule are
// owned rows; members are identities, many-to-many both ways (an identity's form shows its groups too).
import { PRIV } from '../privileges';
import { children, defineResource, ref, refs, text } from './define';

export const ACCESS_GROUP_MEMBERS = { table: 'access_group_members', group: 'access_group_id', identity: 'identity_id' } as const;

export const accessGroupsResource = defineResource({
  name: 'accessGroups',
  table: 'access_groups',
  api: '/event/manage/access-groups',
  route: '/configure/access-group',
  section: 'configure',
  label: { one: 'Access group', many: 'Access groups' },
  icon: 'key',
  privileges: PRIV.accessGroups,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another access group' }),
    description: text({ max: 500, widget: 'textarea', search: true }),
    doors: children({
      table: 'access_group_doors',
      parent: 'access_group_id',
      itemLabel: 'Door',
      max: 2000,
      fields: { doorId: ref('doors', { label: 'Door', required: true }), scheduleId: ref('schedules', { label: 'Schedule', required: true }) },
    }),
    members: refs('identities', {
      label: 'Members',
      through: { table: ACCESS_GROUP_MEMBERS.table, from: ACCESS_GROUP_MEMBERS.group, to: ACCESS_GROUP_MEMBERS.identity },
      maxItems: 200_000,
      onDelete: 'cascade',
    }),
  },
  list: { title: ['name'], columns: ['description', 'doors', 'members', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    { title: 'Access group', fields: ['name', 'description'] },
    { title: 'Doors', description: 'Each door the group opens, and the schedule it opens on.', fields: ['doors'] },
    { title: 'Members', description: 'Identities who may pass these doors.', fields: ['members'] },
  ],
  export: ['csv', 'ndjson'],
  screens: { whatIf: true },
});
