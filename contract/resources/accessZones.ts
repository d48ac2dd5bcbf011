// Access zones [0.4.2.x] (issue 12): areas entered and left through doors (a door's entry and exit zone), with
// anti-passback: off, soft (let through and raise an alarm) or hard (deny), forgiven after some minutes.
import { array, integer, object, string, type, type Infer } from '../structs';
import { idInt } from '../primitives';
import { PRIV } from '../privileges';
import { choice, defineResource, number, text } from './define';

export const ANTI_PASSBACK = [
  { value: 'off', label: 'Off' },
  { value: 'soft', label: 'Soft (alarm)' },
  { value: 'hard', label: 'Hard (deny)' },
] as const;

export const accessZonesResource = defineResource({
  name: 'accessZones',
  table: 'access_zones',
  api: '/event/manage/access-zones',
  route: '/configure/access-zone',
  section: 'configure',
  label: { one: 'Access zone', many: 'Access zones' },
  icon: 'layers',
  privileges: PRIV.accessZones,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another zone' }),
    description: text({ max: 500, widget: 'textarea', search: true }),
    antiPassback: choice(ANTI_PASSBACK, { label: 'Anti-passback', required: true, default: 'off', filter: true, sort: true }),
    forgiveMinutes: number({ label: 'Forgive after (minutes)', required: true, min: 0, max: 10_080, default: 0, help: '0: never forgiven by time' }),
    // issue 47 (server/edge/keys.ts): a hard zone's doors on a Gatehouse Edge controller that is offline are soft until
    // it reconnects (the edge knows nobody's presence elsewhere): how many, and which controllers
    edgeSoftDoors: number({ label: 'Doors soft while their edge is offline', virtual: true, readOnly: true }),
    edgeSoftControllers: text({ label: 'Edge controllers offline', max: 400, virtual: true, readOnly: true }),
  },
  list: { title: ['name'], columns: ['antiPassback', 'forgiveMinutes', 'description', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Zone',
      description: 'Doors lead into a zone by their entry reader and out by their exit reader (set on the door).',
      fields: ['name', 'description', 'antiPassback', 'forgiveMinutes'],
    },
  ],
  export: ['csv', 'ndjson'],
});

// ---------- who is inside (issue 12): occupancy, the muster list, an operator's forgive ----------
/** GET `…/access-zones/occupancy`: how many are inside each zone of the client now. */
export const ZoneOccupancy = type({ items: array(type({ zoneId: integer(), count: integer() })) });
export type ZoneOccupancy = Infer<typeof ZoneOccupancy>;
/** GET `…/access-zones/:id/occupants`: the muster list — who was last let into this zone, and since when. */
export const ZoneOccupants = type({
  zone: type({ id: integer(), name: string(), antiPassback: string() }),
  occupants: array(type({ identityId: integer(), name: string(), since: string() })),
});
export type ZoneOccupants = Infer<typeof ZoneOccupants>;
/** POST `…/access-zones/:id/forgive {identityId}`: that person's anti-passback is forgiven (they may badge in again). */
export const ForgiveBody = object({ identityId: idInt() });
