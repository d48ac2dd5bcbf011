// Interlocking groups [0.4.10.x] (issue 12): doors of which only one may be open at a time (a mantrap): a swipe at
// one is denied while another door of the group is open.
import { PRIV } from '../privileges';
import { defineResource, refs, text } from './define';

export const interlocksResource = defineResource({
  name: 'interlocks',
  table: 'interlocks',
  api: '/event/manage/interlocking-groups',
  route: '/configure/interlocking-groups',
  section: 'configure',
  label: { one: 'Interlocking group', many: 'Interlocking groups' },
  icon: 'link',
  privileges: PRIV.interlocks,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another interlocking group' }),
    description: text({ max: 500, widget: 'textarea', search: true }),
    doorIds: refs('doors', { label: 'Doors', through: { table: 'interlock_doors', from: 'interlock_id', to: 'door_id' }, maxItems: 20, onDelete: 'cascade' }),
  },
  list: { title: ['name'], columns: ['description', 'doorIds', 'updatedAt'], sort: ['name', 'asc'] },
  form: [{ title: 'Interlocking group', description: 'Only one of these doors may be open at a time.', fields: ['name', 'description', 'doorIds'] }],
  export: ['csv', 'ndjson'],
});
