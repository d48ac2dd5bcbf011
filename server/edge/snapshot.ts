// The snapshot of one edge controller (issue 47): what its doors need to decide every swipe with the shared engine
// (access/engine.ts), cut from its client's access index (server/access/index.ts, rebuilt on every change): its doors
// (the doors of its readers, inputs and outputs) with their overrides and threat level, the access groups that open
// them and their members, those members' cards and PINs, the schedules and special dates, the zones, interlocks and
// card formats those doors use, and who is where (anti-passback). Nothing of its client's other doors, and nothing
// of any other client. Its hash is sha256 of its JSON: the version grows only when the hash changes.
import { createHash } from 'node:crypto';
import { DOOR_MOMENTARY_MS, EDGE_MAX_OFFLINE_DAYS, type EdgeDoor, type EdgeSnapshot } from '../../contract';

/** A door's held-open time when its row has none (the column's default, migration 163). */
const DOOR_HELD_OPEN_MS = 30_000;
import type { AccessIndex } from '../../access/engine';
import type { Db } from '../db/db';
import { loadPresence } from '../doors/presence';
import { alarmCodesOf, controllerDoors, doorIoOf, edgeMaxOfflineDays, type DoorIoRow } from '../db/queries/edge';

const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id;

/** The controller's readers and the doors they, its inputs and its outputs are at. */
async function wiring(db: Db, clientId: number, controllerId: number) {
  const { readers, doorIds, policies } = await controllerDoors(db, clientId, controllerId);
  const degraded = new Map(policies.map((p) => [Number(p.id), p.degraded_policy]));
  const heldOpenMs = new Map(policies.map((p) => [Number(p.id), Number(p.held_open_seconds) * 1000]));
  // the door I/O the edge drives and watches: each door's first lock strike, its contacts and exit buttons, each with
  // the board point it is wired to (issue 47: `at`, last, only when wired, so an unwired snapshot's hash is as before)
  const { strikes, inputs } = await doorIoOf(db, clientId, controllerId);
  const at = (r: DoorIoRow & { fail_safe?: boolean }) =>
    r.board_address === null || r.point === null
      ? {}
      : {
          at: {
            address: Number(r.board_address),
            point: Number(r.point),
            ...(r.board_name ? { board: r.board_name } : {}),
            ...(r.fail_safe ? { failSafe: true as const } : {}),
          },
        };
  const strike = new Map<number, EdgeDoor['strike']>();
  for (const o of strikes)
    if (!strike.has(Number(o.door_id)))
      strike.set(Number(o.door_id), {
        id: Number(o.id),
        name: o.name,
        unlockMs: Number(o.pulse_seconds) > 0 ? Number(o.pulse_seconds) * 1000 : DOOR_MOMENTARY_MS,
        ...at(o),
      });
  const inputsOf = new Map<number, EdgeDoor['inputs']>();
  for (const i of inputs)
    inputsOf.set(Number(i.door_id), [
      ...(inputsOf.get(Number(i.door_id)) ?? []),
      { id: Number(i.id), name: i.name, kind: i.kind, normallyClosed: !!i.normally_closed, supervised: !!i.supervised, ...at(i) },
    ]);
  return {
    readers: readers.map((r) => ({ id: Number(r.id), name: r.name, doorId: Number(r.door_id), direction: r.direction, address: Number(r.address ?? 0) })),
    doorIds,
    degraded,
    io: (doorId: number) => ({
      strike: strike.get(doorId) ?? null,
      inputs: inputsOf.get(doorId) ?? [],
      heldOpenMs: heldOpenMs.get(doorId) ?? DOOR_HELD_OPEN_MS,
    }),
  };
}

export async function buildSnapshot(
  db: Db,
  index: AccessIndex,
  controller: { id: number; name: string; clientId: number },
): Promise<{ snapshot: EdgeSnapshot; hash: string }> {
  const { readers, doorIds, degraded, io } = await wiring(db, controller.clientId, controller.id);
  const doors = [...index.doors.values()].filter((d) => doorIds.has(d.id)).sort(byId);
  const groups = [...index.groups.values()]
    .map((g) => ({ id: g.id, name: g.name, doors: [...g.doors].filter(([d]) => doorIds.has(d)).sort((a, b) => a[0] - b[0]) }))
    .filter((g) => g.doors.length > 0)
    .sort(byId);
  const groupIds = new Set(groups.map((g) => g.id));
  // threat levels' exempt groups are kept too: their members pass a locked door
  for (const d of doors) for (const g of d.threat?.exempt ?? []) groupIds.add(g);
  const members: [number, number[]][] = [];
  for (const [identityId, gs] of index.groupsOf) {
    const kept = gs.filter((g) => groupIds.has(g));
    if (kept.length) members.push([identityId, [...kept].sort((a, b) => a - b)]);
  }
  members.sort((a, b) => a[0] - b[0]);
  const who = new Set(members.map((m) => m[0]));
  const scheduleIds = new Set(groups.flatMap((g) => g.doors.map(([, s]) => s)));
  const zoneIds = new Set(doors.flatMap((d) => [d.entryZoneId, d.exitZoneId]).filter((z): z is number => z !== null));
  const interlockIds = new Set(doors.flatMap((d) => d.interlockIds));
  const formatIds = new Set(doors.flatMap((d) => d.formatIds));
  const presence = await loadPresence(db, controller.clientId);
  // the client's own limit (Central properties, general), else the default: a client with no row has not changed it
  const maxOfflineDays = await edgeMaxOfflineDays(db, controller.clientId);
  const snapshot: EdgeSnapshot = {
    controllerId: controller.id,
    controllerName: controller.name,
    timeZone: index.timeZone,
    qrPeriodS: index.qrPeriodS,
    maxOfflineDays: maxOfflineDays ?? EDGE_MAX_OFFLINE_DAYS,
    credentials: [...index.credentials.values()]
      .filter((c) => who.has(c.identityId))
      .map((c) => ({ ...c }))
      .sort(byId),
    identities: [...index.identities.values()]
      .filter((i) => who.has(i.id))
      .map((i) => ({ ...i }))
      .sort(byId),
    doors: doors.map((d) => ({
      id: d.id,
      name: d.name,
      mode: d.mode,
      formatIds: [...d.formatIds],
      entryZoneId: d.entryZoneId,
      exitZoneId: d.exitZoneId,
      interlockIds: [...d.interlockIds],
      qrSecret: d.qrSecret,
      overrides: (d.overrides ?? []).map((o) => ({ ...o })).sort(byId),
      threat: d.threat ? { ...d.threat, exempt: [...d.threat.exempt] } : null,
      degraded: degraded.get(d.id) ?? 'keep',
      ...io(d.id),
    })),
    readers,
    groups,
    members,
    schedules: [...index.schedules.values()]
      .filter((s) => scheduleIds.has(s.id))
      .map((s) => ({
        id: s.id,
        name: s.name,
        windows: s.windows.map((w) => ({ ...w })),
        special: Object.fromEntries(Object.entries(s.special).map(([k, v]) => [k, v.map((w) => ({ ...w }))])),
      }))
      .sort(byId),
    specialDates: index.calendar.dates.map((d) => ({ ...d })).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.kind < b.kind ? -1 : 1)),
    zones: [...index.zones.values()]
      .filter((z) => zoneIds.has(z.id))
      .map((z) => ({ ...z }))
      .sort(byId),
    interlocks: [...index.interlocks.values()]
      .filter((i) => interlockIds.has(i.id))
      .map((i) => ({ ...i, doorIds: [...i.doorIds] }))
      .sort(byId),
    formats: [...index.formats.values()]
      .filter((f) => formatIds.has(f.id))
      .map((f) => ({
        ...f,
        facility: f.facility ? { ...f.facility } : null,
        card: { ...f.card },
        parity: f.parity.map((p) => ({ ...p, over: { ...p.over } })),
      }))
      .sort(byId),
    presence: [...presence]
      .filter(([identityId]) => who.has(identityId))
      .map(([identityId, p]): [number, number | null, number] => [identityId, p.zoneId, p.at])
      .sort((a, b) => a[0] - b[0]),
    // last: a delta that brings it to an edge holding a snapshot without it adds it last, as here (the hash is of the JSON)
    alarmCodes: await alarmCodesOf(db, controller.clientId),
  };
  return { snapshot, hash: snapshotHash(snapshot) };
}

export const snapshotHash = (s: EdgeSnapshot) => createHash('sha256').update(JSON.stringify(s)).digest('hex');
