// The "Why?" explainer (issue 12): GET /event/manage/events/:id/explain re-runs the decision of a stored swipe event
// against the current access index and answers the chain of checks. The events screen's privilege (or the event
// report's); another tenant's event, or an event that is not a swipe, is 404.
import type { FastifyInstance } from 'fastify';
import { enums, nullable, object, optional, record, string, unknown } from 'superstruct';
import {
  API,
  ForgiveBody,
  PRIV,
  accessGroupsResource,
  accessZonesResource,
  checkAllRules,
  idInt,
  inputSchema,
  schedulesResource,
  specialDatesResource,
  type Violation,
  type ZoneOccupancy,
  type ZoneOccupants,
} from '../../contract';
import { FIXED_SAID, validate } from '../../contract/schemas';
import type { Db } from '../db/db';
import { HttpError, fill, body, clientOf, idParam, principal, INVALID_REQUEST } from '../http/kit';
import { audit } from '../audit/trail';
import type { HardwarePort } from '../doors/port';
import { dropPresence, presenceOf, zoneCounts, zoneOccupants } from '../doors/presence';
import { previewAccess, type AccessChange } from './preview';
import { SpecialCalendar, type DayWindow } from '../../access/schedule';
import { accessZone, specialDates } from '../db/queries/access';

export const EXPLAIN_PATH = `${API.events}/:id/explain`;

/**
 * What-if [issue 12]: `POST /event/manage/access-preview {resource, id, values}` — the form's values of an access
 * group, schedule or special date (checked as a save would check them), and who would gain and lose which doors over
 * the next 7 days if they were saved. Nothing is saved. The resource's add (new) or edit (id) privilege.
 */
export const PREVIEW_PATH = API.accessPreview;
const PREVIEWED = { accessGroups: accessGroupsResource, schedules: schedulesResource, specialDates: specialDatesResource } as const;
export const PreviewRequest = object({
  resource: enums(Object.keys(PREVIEWED) as (keyof typeof PREVIEWED)[]),
  id: optional(nullable(idInt())),
  values: record(string(), unknown()),
});

export function accessRoutes(app: FastifyInstance, { simulator, db }: { simulator: HardwarePort; db: Db }) {
  // ---------- who is inside (issue 12): from the engine's presence (the last zone each person was let into) ----------
  const ZONES = accessZonesResource.api;
  async function zoneOf(req: Parameters<typeof clientOf>[0]) {
    const clientId = clientOf(req);
    const id = idParam(req, 'Access zone');
    const zone = await accessZone(db, clientId, id);
    if (!zone) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Access zone' }));
    return { clientId, zone };
  }
  app.get(`${ZONES}/occupancy`, { config: { privileges: [PRIV.accessZones.view] } }, async (req): Promise<ZoneOccupancy> => {
    const counts = await zoneCounts(db, clientOf(req));
    return { items: [...counts].map(([zoneId, count]) => ({ zoneId, count })).sort((a, b) => a.zoneId - b.zoneId) };
  });
  app.get(`${ZONES}/:id/occupants`, { config: { privileges: [PRIV.accessZones.view] } }, async (req): Promise<ZoneOccupants> => {
    const { clientId, zone } = await zoneOf(req);
    const occupants = await zoneOccupants(db, clientId, zone.id);
    return { zone: { id: zone.id, name: zone.name, antiPassback: zone.anti_passback }, occupants };
  });
  app.post(`${ZONES}/:id/forgive`, { config: { privileges: [PRIV.accessZones.edit], touches: 'client' } }, async (req) => {
    const { clientId, zone } = await zoneOf(req);
    const { identityId } = body(req.body, ForgiveBody);
    const where = await presenceOf(db, clientId, identityId);
    if (!where || where.zoneId !== zone.id) throw new HttpError(409, fill('access.notInside', 'That person is not inside {zone}', { zone: zone.name }));
    const name = (await simulator.access.get(clientId)).identities.get(identityId)?.name ?? `#${identityId}`;
    await db.transaction(async (tx) => {
      await dropPresence(tx, clientId, identityId);
      await audit(tx, req, {
        clientId,
        action: 'forgive',
        entity: 'access zone',
        entityId: zone.id,
        before: { identityId, zone: zone.name },
        after: { identityId, name, forgiven: true },
      });
    });
    simulator.forgiven(clientId, identityId);
    return { identityId, name, zone: zone.name };
  });

  const previewCodes = Object.values(PREVIEWED).flatMap((r) => [r.privileges.add!, r.privileges.edit!]);
  app.post(PREVIEW_PATH, { config: { privileges: previewCodes, touches: 'client' } }, async (req) => {
    const clientId = clientOf(req);
    const input = body(req.body, PreviewRequest);
    const r = PREVIEWED[input.resource];
    const id = input.id ?? null;
    const code = id === null ? r.privileges.add! : r.privileges.edit!;
    if (!principal(req).entries.some((e) => e.privilegeIds.includes(code))) throw new HttpError(403, fill('privilege.forbidden', 'Forbidden', {}));
    const checked = validate(input.values, inputSchema(r));
    if (!checked.ok) throw new HttpError(400, INVALID_REQUEST, checked.violations);
    const rules = checkAllRules(r, input.values);
    if (rules.length) throw new HttpError(400, INVALID_REQUEST, rules);
    const v = checked.value as Record<string, any>;
    const index = await simulator.access.get(clientId);
    const unknownRef: Violation[] = [];
    let change: AccessChange;
    if (input.resource === 'accessGroups') {
      if (id !== null && !index.groups.has(id)) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Access group' }));
      const doors = (v.doors ?? []) as { doorId: number; scheduleId: number }[];
      doors.forEach((d, i) => {
        if (!index.doors.has(d.doorId)) unknownRef.push({ field: `doors.${i}.doorId`, ...fill('record.doesNotExist', 'does not exist', {}) });
        if (!index.schedules.has(d.scheduleId)) unknownRef.push({ field: `doors.${i}.scheduleId`, ...fill('record.doesNotExist', 'does not exist', {}) });
      });
      const members = (v.members ?? []) as number[];
      if (members.some((m) => !index.identities.has(m))) unknownRef.push({ field: 'members', ...fill('record.doesNotExist', 'does not exist', {}) });
      change = { kind: 'accessGroups', id, name: v.name, doors, members };
    } else if (input.resource === 'schedules') {
      if (id !== null && !index.schedules.has(id)) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Schedule' }));
      const special: Record<string, DayWindow[]> = {};
      for (const w of (v.specialWindows ?? []) as { kind: string; start: string; end: string }[]) (special[w.kind] ??= []).push({ start: w.start, end: w.end });
      change = {
        kind: 'schedules',
        id,
        name: v.name,
        windows: ((v.windows ?? []) as { day: string; start: string; end: string }[]).map((w) => ({ day: Number(w.day), start: w.start, end: w.end })),
        special,
      };
    } else {
      const rows = await specialDates(db, clientId);
      if (id !== null && !rows.some((x) => x.id === id)) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Special date' }));
      const dates = rows.filter((x) => x.id !== id).map((x) => ({ date: x.date, yearly: x.yearly, kind: x.kind, name: x.name }));
      dates.push({ date: v.date, yearly: !!v.yearly, kind: v.kind, name: v.name });
      change = { kind: 'specialDates', calendar: new SpecialCalendar(dates) };
    }
    if (unknownRef.length) throw new HttpError(400, INVALID_REQUEST, unknownRef);
    return previewAccess(index, change, Date.now());
  });

  app.get(EXPLAIN_PATH, { config: { privileges: [PRIV.events.view, PRIV.eventReport] } }, async (req) => {
    const clientId = clientOf(req);
    const raw = (req.params as { id?: string }).id ?? '';
    if (!/^\d{1,15}$/.test(raw)) throw new HttpError(400, INVALID_REQUEST, [{ field: 'id', ...FIXED_SAID.notWhole }]);
    const out = await simulator.explain(clientId, Number(raw));
    if (!out) throw new HttpError(404, fill('swipeEvent.notFound', 'Swipe event not found', {}));
    return out;
  });
}
