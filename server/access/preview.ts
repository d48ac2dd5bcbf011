// What-if preview (issue 12): before an access group, a schedule or a special date is saved, who gains and who loses
// which doors over the next days. The tenant's access index with the change applied in memory is compared with the
// index as it is, slot by slot (every 15 minutes, in the client's time zone, so daylight-saving days count right),
// for every active identity and door the change can touch: the hours each pair is open before and after. A pair whose
// hours grow gains, one whose hours shrink loses. Only what access groups, schedules and special days decide is
// compared (a lost card or a lockdown is not a configuration change).
import type { LocalTime } from '../../access/clock';
import { localTime } from '../../access/clock';
import type { AccessGroupFact, AccessIndex } from '../../access/engine';
import { scheduleOpen, type DayWindow, type Schedule, type SpecialCalendar, type WeeklyWindow } from '../../access/schedule';

export type AccessChange =
  | { kind: 'accessGroups'; id: number | null; name: string; doors: readonly { doorId: number; scheduleId: number }[]; members: readonly number[] }
  | { kind: 'schedules'; id: number | null; name: string; windows: readonly WeeklyWindow[]; special: Readonly<Record<string, readonly DayWindow[]>> }
  | { kind: 'specialDates'; calendar: SpecialCalendar };

export interface PreviewPair {
  identityId: number;
  identityName: string;
  doorId: number;
  doorName: string;
  hoursBefore: number;
  hoursAfter: number;
}
export interface AccessPreview {
  from: string;
  to: string;
  days: number;
  gains: PreviewPair[];
  losses: PreviewPair[];
  /** all (identity, door) pairs that gain or lose (the lists stop at `limit`) */
  gained: number;
  lost: number;
  /** the distinct people, and the distinct doors, among those pairs (232 people losing one door is 232 pairs, 1 door) */
  identitiesGaining: number;
  identitiesLosing: number;
  doorsGaining: number;
  doorsLosing: number;
}

/** A new group or schedule has no id yet: it takes this one in the index after the change. */
const NEW_ID = -1;

/** The index as it would be after `change`. */
export function applyChange(index: AccessIndex, change: AccessChange): AccessIndex {
  if (change.kind === 'specialDates') return { ...index, calendar: change.calendar };
  if (change.kind === 'schedules') {
    const id = change.id ?? NEW_ID;
    const schedules = new Map(index.schedules);
    schedules.set(id, { id, name: change.name, windows: change.windows, special: change.special });
    return { ...index, schedules };
  }
  const id = change.id ?? NEW_ID;
  const groups = new Map<number, AccessGroupFact>(index.groups);
  groups.set(id, { id, name: change.name, doors: new Map(change.doors.map((d) => [d.doorId, d.scheduleId])) });
  const groupsOf = new Map<number, readonly number[]>();
  for (const [identity, list] of index.groupsOf) {
    const rest = list.filter((g) => g !== id);
    if (rest.length) groupsOf.set(identity, rest);
  }
  for (const m of change.members) groupsOf.set(m, [...(groupsOf.get(m) ?? []), id]);
  return { ...index, groups, groupsOf };
}

/** The identities and doors a change can touch (a special day: everyone's). */
function candidates(before: AccessIndex, after: AccessIndex, change: AccessChange): { identities: Set<number>; doors: Set<number> | null } {
  if (change.kind === 'accessGroups') {
    const id = change.id ?? NEW_ID;
    const identities = new Set<number>(change.members);
    for (const [identity, list] of before.groupsOf) if (list.includes(id)) identities.add(identity);
    const doors = new Set<number>([...(before.groups.get(id)?.doors.keys() ?? []), ...(after.groups.get(id)?.doors.keys() ?? [])]);
    return { identities, doors };
  }
  if (change.kind === 'schedules') {
    const id = change.id ?? NEW_ID;
    const groups = new Set([...before.groups.values()].filter((g) => [...g.doors.values()].includes(id)).map((g) => g.id));
    const identities = new Set<number>();
    for (const [identity, list] of before.groupsOf) if (list.some((g) => groups.has(g))) identities.add(identity);
    return { identities, doors: null };
  }
  return { identities: new Set(before.groupsOf.keys()), doors: null };
}

export function previewAccess(
  before: AccessIndex,
  change: AccessChange,
  from: number,
  opts: { days?: number; stepMinutes?: number; limit?: number } = {},
): AccessPreview {
  const days = opts.days ?? 7;
  const step = opts.stepMinutes ?? 15;
  const limit = opts.limit ?? 500;
  const after = applyChange(before, change);
  const slots = Math.round((days * 24 * 60) / step);
  const times: LocalTime[] = Array.from({ length: slots }, (_, i) => localTime(from + i * step * 60_000, before.timeZone));
  // each schedule's open slots, once per index (the schedules and the calendar are all that differ)
  const bitsOf = (index: AccessIndex) => {
    const memo = new Map<number, Uint8Array>();
    return (scheduleId: number): Uint8Array => {
      let bits = memo.get(scheduleId);
      if (bits) return bits;
      bits = new Uint8Array(slots);
      const s: Schedule | undefined = index.schedules.get(scheduleId);
      if (s)
        times.forEach((t, i) => {
          if (scheduleOpen(s, t, index.calendar.on(t)).open) bits![i] = 1;
        });
      memo.set(scheduleId, bits);
      return bits;
    };
  };
  const bitsBefore = bitsOf(before);
  const bitsAfter = bitsOf(after);
  /** slots `identity` may pass `door` in `index` (through any of its groups) */
  const openSlots = (index: AccessIndex, bits: (s: number) => Uint8Array, identity: number, door: number): number => {
    const schedules = (index.groupsOf.get(identity) ?? []).map((g) => index.groups.get(g)?.doors.get(door)).filter((s): s is number => s !== undefined);
    if (schedules.length === 0) return 0;
    if (schedules.length === 1) {
      let n = 0;
      for (const b of bits(schedules[0])) n += b;
      return n;
    }
    const rows = schedules.map(bits);
    let n = 0;
    for (let i = 0; i < slots; i++) if (rows.some((r) => r[i])) n++;
    return n;
  };
  const doorsOf = (index: AccessIndex, identity: number) => (index.groupsOf.get(identity) ?? []).flatMap((g) => [...(index.groups.get(g)?.doors.keys() ?? [])]);
  const { identities, doors } = candidates(before, after, change);
  const gains: PreviewPair[] = [];
  const losses: PreviewPair[] = [];
  let gained = 0;
  let lost = 0;
  const gaining = new Set<number>();
  const losing = new Set<number>();
  const doorsGaining = new Set<number>();
  const doorsLosing = new Set<number>();
  const hours = (n: number) => Math.round((n * step) / 6) / 10;
  for (const identityId of [...identities].sort((a, b) => a - b)) {
    const who = before.identities.get(identityId);
    if (!who || who.status !== 'active') continue;
    const touched = new Set([...doorsOf(before, identityId), ...doorsOf(after, identityId)].filter((d) => !doors || doors.has(d)));
    for (const doorId of [...touched].sort((a, b) => a - b)) {
      const b = openSlots(before, bitsBefore, identityId, doorId);
      const a = openSlots(after, bitsAfter, identityId, doorId);
      if (a === b) continue;
      const pair = {
        identityId,
        identityName: who.name,
        doorId,
        doorName: before.doors.get(doorId)?.name ?? `Door ${doorId}`,
        hoursBefore: hours(b),
        hoursAfter: hours(a),
      };
      if (a > b) {
        gained++;
        gaining.add(identityId);
        doorsGaining.add(doorId);
        if (gains.length < limit) gains.push(pair);
      } else {
        lost++;
        losing.add(identityId);
        doorsLosing.add(doorId);
        if (losses.length < limit) losses.push(pair);
      }
    }
  }
  return {
    from: new Date(from).toISOString(),
    to: new Date(from + days * 86_400_000).toISOString(),
    days,
    gains,
    losses,
    gained,
    lost,
    identitiesGaining: gaining.size,
    identitiesLosing: losing.size,
    doorsGaining: doorsGaining.size,
    doorsLosing: doorsLosing.size,
  };
}
