// Floor plans [0.4.15.x] (issue 12): a drawing of a floor (PNG, JPEG, WebP or GIF) with the client's doors pinned
// where they are, at per-mille positions across and down the picture. Configure places the pins by clicking the
// plan; the monitor (/monitor/floor-plan [0.2.3.0]) shows every pinned door's live state on it and, for holders of
// door control, its commands. Monitor users list and read plans without the configure codes.
import { children, defineResource, image, number, ref, text } from './define';

/** The biggest plan picture (decoded): a request body is at most 2 MB, base64 adds a third. */
export const FLOOR_PLAN_MAX_BYTES = 1_400_000;
export const FLOOR_PLAN_MONITOR = '0.2.3.0';

export const floorPlansResource = defineResource({
  name: 'floorPlans',
  table: 'floor_plans',
  api: '/event/manage/floor-plans',
  route: '/configure/floor-plan',
  section: 'configure',
  label: { one: 'Floor plan', many: 'Floor plans' },
  icon: 'map',
  privileges: { view: '0.4.15.0', add: '0.4.15.1', edit: '0.4.15.2', delete: '0.4.15.3', read: [FLOOR_PLAN_MONITOR], list: [FLOOR_PLAN_MONITOR] },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({
      max: 100,
      required: true,
      search: true,
      sort: true,
      unique: 'tenant',
      uniqueMessage: 'is already the name of another floor plan',
      placeholder: 'Ground floor',
    }),
    description: text({ max: 500, search: true, wide: true }),
    image: image({
      label: 'Plan',
      maxBytes: FLOOR_PLAN_MAX_BYTES,
      inList: false,
      widget: 'upload',
      wide: true,
      help: 'A PNG, JPEG, WebP or GIF picture of the floor, at most 1.4 MB',
    }),
    doors: children({
      table: 'floor_plan_doors',
      parent: 'floor_plan_id',
      itemLabel: 'Door',
      max: 200,
      pins: { image: 'image', x: 'x', y: 'y' },
      fields: {
        doorId: ref('doors', { label: 'Door', required: true, onDelete: 'cascade' }),
        x: number({ label: 'Across (‰)', min: 0, max: 1000, required: true }),
        y: number({ label: 'Down (‰)', min: 0, max: 1000, required: true }),
      },
    }),
  },
  list: { title: ['name'], columns: ['description', 'doors', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    { title: 'Floor plan', fields: ['name', 'description', 'image'] },
    {
      title: 'Doors on the plan',
      description: 'Click the plan to pin a door there, then choose which door it is; click a pin, then the plan, to move it.',
      fields: ['doors'],
    },
  ],
  export: ['csv', 'ndjson'],
});
