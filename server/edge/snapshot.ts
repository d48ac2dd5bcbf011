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
import type { AccessIndex, CredentialFact, IdentityFact } from '../../access/engine';
import { cardsOfIdentities, membersOfGroups, type AccessIndexes } from '../access/index';
import type { Db } from '../db/db';
import { loadPresence } from '../doors/presence';
import { alarmCodesOf, controllerDoors, doorIoOf, edgeMaxOfflineDays, presenceOfIdentities, type DoorIoRow } from '../db/queries/edge';

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

/** A snapshot's people: the parts cut from the index's people (credentials, identities, members) and their presence. */
interface PeopleParts {
  credentials: EdgeSnapshot['credentials'];
  identities: EdgeSnapshot['identities'];
  members: EdgeSnapshot['members'];
  presence: EdgeSnapshot['presence'];
}

/** Everything of the controller's snapshot but its people (its doors and their configuration: a few hundred rows at
 *  most, whatever the tenant's size), and the access groups whose members it holds. */
async function configCut(db: Db, index: AccessIndex, controller: { id: number; name: string; clientId: number }) {
  const { readers, doorIds, degraded, io } = await wiring(db, controller.clientId, controller.id);
  const doors = [...index.doors.values()].filter((d) => doorIds.has(d.id)).sort(byId);
  const groups = [...index.groups.values()]
    .map((g) => ({ id: g.id, name: g.name, doors: [...g.doors].filter(([d]) => doorIds.has(d)).sort((a, b) => a[0] - b[0]) }))
    .filter((g) => g.doors.length > 0)
    .sort(byId);
  const groupIds = new Set(groups.map((g) => g.id));
  // threat levels' exempt groups are kept too: their members pass a locked door
  for (const d of doors) for (const g of d.threat?.exempt ?? []) groupIds.add(g);
  const scheduleIds = new Set(groups.flatMap((g) => g.doors.map(([, s]) => s)));
  const zoneIds = new Set(doors.flatMap((d) => [d.entryZoneId, d.exitZoneId]).filter((z): z is number => z !== null));
  const interlockIds = new Set(doors.flatMap((d) => d.interlockIds));
  const formatIds = new Set(doors.flatMap((d) => d.formatIds));
  // the client's own limit (Central properties, general), else the default: a client with no row has not changed it
  const maxOfflineDays = await edgeMaxOfflineDays(db, controller.clientId);
  const alarmCodes = await alarmCodesOf(db, controller.clientId);
  /** The snapshot with these people (its parts in this order: the hash is of its JSON). */
  const assemble = (people: PeopleParts): EdgeSnapshot => ({
    controllerId: controller.id,
    controllerName: controller.name,
    timeZone: index.timeZone,
    qrPeriodS: index.qrPeriodS,
    maxOfflineDays: maxOfflineDays ?? EDGE_MAX_OFFLINE_DAYS,
    credentials: people.credentials,
    identities: people.identities,
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
    members: people.members,
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
    presence: people.presence,
    // last: a delta that brings it to an edge holding a snapshot without it adds it last, as here (the hash is of the JSON)
    alarmCodes,
  });
  return { groupIds, assemble };
}

/**
 * The controller's whole snapshot, its people found by walking every member and credential of the tenant: what the
 * hub's cutter (snapshotCutter, which cuts only what changed) must give exactly, hash and all; the tests and the bench
 * hold it to this.
 */
export async function buildSnapshot(
  db: Db,
  index: AccessIndex,
  controller: { id: number; name: string; clientId: number },
): Promise<{ snapshot: EdgeSnapshot; hash: string }> {
  const { groupIds, assemble } = await configCut(db, index, controller);
  const members: [number, number[]][] = [];
  for (const [identityId, gs] of index.groupsOf) {
    const kept = gs.filter((g) => groupIds.has(g));
    if (kept.length) members.push([identityId, [...kept].sort((a, b) => a - b)]);
  }
  members.sort((a, b) => a[0] - b[0]);
  const who = new Set(members.map((m) => m[0]));
  const presence = await loadPresence(db, controller.clientId);
  const snapshot = assemble({
    credentials: [...index.credentials.values()]
      .filter((c) => who.has(c.identityId))
      .map((c) => ({ ...c }))
      .sort(byId),
    identities: [...index.identities.values()]
      .filter((i) => who.has(i.id))
      .map((i) => ({ ...i }))
      .sort(byId),
    members,
    presence: [...presence]
      .filter(([identityId]) => who.has(identityId))
      .map(([identityId, p]): [number, number | null, number] => [identityId, p.zoneId, p.at])
      .sort((a, b) => a[0] - b[0]),
  });
  return { snapshot, hash: snapshotHash(snapshot) };
}

/** `list` (ascending by `key`, not changed) without the elements of keys `gone`, with `added` put in: a new list. */
function patchSorted<T>(list: readonly T[], gone: ReadonlySet<number>, added: T[], key: (e: T) => number): T[] {
  if (!gone.size && !added.length) return list as T[];
  const out = gone.size ? list.filter((e) => !gone.has(key(e))) : [...list];
  for (const e of added.sort((a, b) => key(a) - key(b))) {
    const k = key(e);
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (key(out[mid]) < k) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, e);
  }
  return out;
}

/**
 * One controller's snapshots, one after another (the hub keeps one per connection): what buildSnapshot gives, hash
 * and all, but its people cut again only where they changed. It keeps the people it cut (their members, identities
 * and credentials) and the index it cut them from; the next index says which identities changed since
 * (AccessIndexes.changedSince), and the access groups of the controller's doors that came or went give their members
 * (looked up by group, server/access/people.ts): only those are cut again, never the tenant walked (at 200,000
 * identities every change walked them all, per connected controller). The first cut, and one after a full build of the
 * index, looks its groups' members up. Left in proportion to the snapshot (not the tenant): its presence read, its
 * lists copied (pointers) when they change, and its JSON hashed.
 */
export function snapshotCutter(db: Db, indexes: Pick<AccessIndexes, 'changedSince'>, controller: { id: number; clientId: number }) {
  /** the index and groups of the last cut (null: none yet, or the last one failed) */
  let held: { index: AccessIndex; groupIds: ReadonlySet<number> } | null = null;
  const members = new Map<number, [number, number[]]>();
  const identities = new Map<number, IdentityFact>();
  /** card number → its credential, of the people held; and each person's card numbers */
  const cards = new Map<string, CredentialFact>();
  const cardsOf = new Map<number, string[]>();
  let parts: Omit<PeopleParts, 'presence'> = { credentials: [], identities: [], members: [] };
  const stats = { full: 0, partial: 0, people: 0 };

  async function build(index: AccessIndex, name: string): Promise<{ snapshot: EdgeSnapshot; hash: string }> {
    const { groupIds, assemble } = await configCut(db, index, { id: controller.id, name, clientId: controller.clientId });
    try {
      const changed = held && (held.index === index ? new Set<number>() : indexes.changedSince(controller.clientId, index, held.index));
      let affected: Set<number>;
      if (!held || !changed) {
        // from nothing: the members of its groups
        stats.full++;
        members.clear();
        identities.clear();
        cards.clear();
        cardsOf.clear();
        parts = { credentials: [], identities: [], members: [] };
        affected = membersOfGroups(index, groupIds);
      } else {
        stats.partial++;
        affected = changed;
        // the groups that came or went: their members before and now
        const diff = new Set([...groupIds].filter((g) => !held!.groupIds.has(g)));
        for (const g of held.groupIds) if (!groupIds.has(g)) diff.add(g);
        if (diff.size) for (const id of [...membersOfGroups(index, diff), ...membersOfGroups(held.index, diff)]) affected.add(id);
      }
      // their cards now; a card held as another person's that is now one of theirs makes that person cut again too
      const cardsNow = new Map<number, CredentialFact[]>();
      for (let work = [...affected]; work.length;) {
        const found = cardsOfIdentities(index, work);
        const next: number[] = [];
        for (const id of work) {
          const list = found.get(id) ?? [];
          cardsNow.set(id, list);
          for (const c of list) {
            const was = cards.get(c.number)?.identityId;
            if (was !== undefined && was !== id && !affected.has(was)) {
              affected.add(was);
              next.push(was);
            }
          }
        }
        work = next;
      }
      stats.people += affected.size;
      // out with what was held of them, in with what the index says
      const gone = { members: new Set<number>(), identities: new Set<number>(), credentials: new Set<number>() };
      const added = { members: [] as [number, number[]][], identities: [] as IdentityFact[], credentials: [] as CredentialFact[] };
      for (const id of affected) {
        if (members.delete(id)) gone.members.add(id);
        if (identities.delete(id)) gone.identities.add(id);
        for (const number of cardsOf.get(id) ?? []) {
          const c = cards.get(number);
          if (c?.identityId !== id) continue;
          cards.delete(number);
          gone.credentials.add(c.id);
        }
        cardsOf.delete(id);
      }
      for (const id of affected) {
        const kept = (index.groupsOf.get(id) ?? []).filter((g) => groupIds.has(g));
        if (!kept.length) continue;
        const m: [number, number[]] = [id, [...kept].sort((a, b) => a - b)];
        members.set(id, m);
        added.members.push(m);
        const fact = index.identities.get(id);
        if (fact) {
          const i = { ...fact };
          identities.set(id, i);
          added.identities.push(i);
        }
        const list = cardsNow.get(id) ?? [];
        if (list.length)
          cardsOf.set(
            id,
            list.map((c) => c.number),
          );
        for (const fact of list) {
          const c = { ...fact };
          cards.set(c.number, c);
          added.credentials.push(c);
        }
      }
      parts = {
        credentials: patchSorted(parts.credentials, gone.credentials, added.credentials, (c) => c.id),
        identities: patchSorted(parts.identities, gone.identities, added.identities, (i) => i.id),
        members: patchSorted(parts.members, gone.members, added.members, (m) => m[0]),
      };
      held = { index, groupIds };
      const where = await presenceOfIdentities(
        db,
        controller.clientId,
        parts.members.map((m) => m[0]),
      );
      const presence = parts.members.flatMap(([id]): [number, number | null, number][] => {
        const p = where.get(id);
        return p ? [[id, p.zoneId, p.at]] : [];
      });
      const snapshot = assemble({ ...parts, presence });
      return { snapshot, hash: snapshotHash(snapshot) };
    } catch (e) {
      held = null; // cut whole next time
      throw e;
    }
  }
  return { build, stats };
}
export type SnapshotCutter = ReturnType<typeof snapshotCutter>;

export const snapshotHash = (s: EdgeSnapshot) => createHash('sha256').update(JSON.stringify(s)).digest('hex');
