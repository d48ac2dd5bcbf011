// Threat levels (issue 12; beyond the spec, as the anchors have it): ranked levels of a client (1 the mildest), each
// saying what every door does while it is in force — nothing more than an announced state, card and PIN, or held
// locked — and which access groups' members still pass (responders). One level is in force per client, for the
// whole client or one site (a division and those inside it), set with one audited command that may revert by itself
// after a number of minutes (server/access/threat.ts). The access engine decides by it: it outranks overrides and a
// door's own mode; a lockdown still outranks it. Configured with the override privileges (0.4.4.x), set and lowered
// with door control (0.4.5.4), like a lockdown.
import { PRIV } from '../privileges';
import { choice, defineResource, number, refs, text } from './define';

export const THREAT_MODES = [
  { value: 'card', label: 'Doors as they are' },
  { value: 'card-pin', label: 'Card and PIN at every door' },
  { value: 'locked', label: 'Doors held locked' },
] as const;
export type ThreatMode = (typeof THREAT_MODES)[number]['value'];

export const threatLevelsResource = defineResource({
  name: 'threatLevels',
  table: 'threat_levels',
  api: '/event/manage/threat-levels',
  route: '/configure/threat-levels',
  section: 'configure',
  label: { one: 'Threat level', many: 'Threat levels' },
  icon: 'shield',
  privileges: PRIV.overrides,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another threat level' }),
    rank: number({
      label: 'Rank',
      min: 1,
      max: 99,
      required: true,
      default: 1,
      sort: true,
      unique: 'tenant',
      uniqueMessage: 'is already the rank of another threat level',
      help: '1 is the mildest; a higher rank is more severe',
    }),
    mode: choice(THREAT_MODES, { label: 'Doors', required: true, default: 'card', filter: true, sort: true }),
    exemptGroupIds: refs('accessGroups', {
      label: 'Still pass',
      help: 'Members of these access groups pass as usual (responders, security)',
      through: { table: 'threat_level_exempt_groups', from: 'threat_level_id', to: 'access_group_id' },
      maxItems: 50,
      onDelete: 'cascade',
    }),
    description: text({ max: 500, widget: 'textarea', wide: true, search: true, placeholder: 'Credible threat nearby: visitors are escorted' }),
  },
  list: { title: ['name'], columns: ['rank', 'mode', 'exemptGroupIds', 'description', 'updatedAt'], sort: ['rank', 'asc'] },
  form: [
    {
      title: 'Threat level',
      description: 'While this level is in force, every door of the client (or of the site it was set for) does what it says.',
      fields: ['name', 'rank', 'mode', 'description'],
    },
    { title: 'Who still passes', fields: ['exemptGroupIds'] },
  ],
  export: ['csv', 'ndjson'],
});
