// The edge's snapshot (issue 47): what the server sent of its doors' access rules, checked (schema, hash, version,
// controller), kept on disk (`snapshot.json`, written whole) so a restart with the server gone still decides, and
// turned into the shared engine's index (access/engine.ts AccessIndex). `freshAt` is the last moment the edge knew it
// was current (connected to the server): offline, it decides from it for at most its maxOfflineDays.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EdgeDeltaMessage, EdgeSnapshot, EdgeSnapshotMessage, applyPart, validate } from '../contract';
import type { AccessGroupFact, AccessIndex, DoorFact } from '../access/engine';
import { SpecialCalendar } from '../access/schedule';
import { writeWhole } from './journal';

export interface Held {
  version: number;
  hash: string;
  snapshot: EdgeSnapshot;
  index: AccessIndex;
  /** the same index with hard anti-passback made soft (offline: grant and log) */
  softIndex: AccessIndex;
  freshAt: number;
  /** when the server built this version (its message's builtAt): the snapshot's real age; a Why? of an offline
   *  decision names it (a file from before it was kept: its freshAt) */
  builtAt: number;
}

/** The engine's index of a snapshot. */
export function indexOf(s: EdgeSnapshot): AccessIndex {
  const groupsOf = new Map<number, number[]>(s.members.map(([id, gs]) => [id, gs]));
  return {
    timeZone: s.timeZone,
    credentials: new Map(s.credentials.map((c) => [c.number, c])),
    identities: new Map(s.identities.map((i) => [i.id, i])),
    doors: new Map(s.doors.map((d): [number, DoorFact] => [d.id, d])),
    groupsOf,
    groups: new Map(s.groups.map((g): [number, AccessGroupFact] => [g.id, { id: g.id, name: g.name, doors: new Map(g.doors) }])),
    schedules: new Map(s.schedules.map((x) => [x.id, x])),
    calendar: new SpecialCalendar(s.specialDates),
    zones: new Map(s.zones.map((z) => [z.id, z])),
    interlocks: new Map(s.interlocks.map((i) => [i.id, i])),
    formats: new Map(s.formats.map((f) => [f.id, f])),
    qrPeriodS: s.qrPeriodS,
  };
}

const soften = (index: AccessIndex): AccessIndex => ({
  ...index,
  zones: new Map([...index.zones].map(([id, z]) => [id, z.antiPassback === 'hard' ? { ...z, antiPassback: 'soft' as const } : z])),
});

export type SnapshotStore = ReturnType<typeof openSnapshotStore>;

export function openSnapshotStore(dir: string, now: () => number = Date.now) {
  const file = join(dir, 'snapshot.json');
  let held: Held | null = null;
  const hold = (version: number, hash: string, snapshot: EdgeSnapshot, freshAt: number, builtAt: number): Held => {
    const index = indexOf(snapshot);
    return { version, hash, snapshot, index, softIndex: soften(index), freshAt, builtAt };
  };
  const save = () => {
    if (held)
      writeWhole(file, JSON.stringify({ version: held.version, hash: held.hash, freshAt: held.freshAt, builtAt: held.builtAt, snapshot: held.snapshot }));
  };
  if (existsSync(file)) {
    try {
      const kept = JSON.parse(readFileSync(file, 'utf8')) as { version: number; hash: string; freshAt: number; builtAt?: number; snapshot: EdgeSnapshot };
      held = hold(kept.version, kept.hash, kept.snapshot, kept.freshAt, kept.builtAt ?? kept.freshAt);
    } catch {
      held = null; // unreadable: decide nothing until the server sends one
    }
  }

  return {
    get held() {
      return held;
    },
    /**
     * A snapshot message from the server (its JSON as parsed): checked, then kept. Refused, with the field and why,
     * when it is not one (schema), its hash does not match (altered), it is not newer than the one held (stale or out of
     * order) or it is another controller's. Nothing changes when it is refused.
     */
    accept(raw: unknown, controllerId: number): { ok: true; version: number; same: boolean } | { ok: false; field: string; message: string } {
      const r = validate(raw, EdgeSnapshotMessage);
      if (!r.ok)
        return { ok: false, field: `snapshot message: ${r.violations[0]?.field ?? '(body)'}`, message: r.violations[0]?.message ?? 'is not a snapshot' };
      const m = r.value;
      const hash = createHash('sha256')
        .update(JSON.stringify((raw as { snapshot: unknown }).snapshot))
        .digest('hex');
      if (hash !== m.hash) return { ok: false, field: 'hash', message: 'does not match the snapshot (altered or forged): kept the one held' };
      if (m.snapshot.controllerId !== controllerId)
        return { ok: false, field: 'snapshot.controllerId', message: `is ${m.snapshot.controllerId}, not this controller (${controllerId})` };
      if (held && m.version === held.version && m.hash === held.hash) {
        held.freshAt = now();
        held.builtAt = m.builtAt;
        save();
        return { ok: true, version: m.version, same: true };
      }
      if (held && m.version <= held.version && held.snapshot.controllerId === controllerId)
        return { ok: false, field: 'version', message: `${m.version} is not newer than the version held (${held.version}): stale or out of order` };
      held = hold(m.version, m.hash, m.snapshot, now(), m.builtAt);
      save();
      return { ok: true, version: m.version, same: false };
    },
    /**
     * A delta from the server: applied only on the version held (else out of order), and only when the result's hash is
     * the one it names and the result is a whole snapshot of this controller. Refused, nothing changes.
     */
    acceptDelta(raw: unknown, controllerId: number): { ok: true; version: number; parts: string } | { ok: false; field: string; message: string } {
      const r = validate(raw, EdgeDeltaMessage);
      if (!r.ok) return { ok: false, field: `delta: ${r.violations[0]?.field ?? '(body)'}`, message: r.violations[0]?.message ?? 'is not a delta' };
      const m = r.value;
      if (!held || m.from !== held.version)
        return { ok: false, field: 'from', message: `${m.from} is not the version held (${held?.version ?? 'none'}): out of order` };
      if (m.version <= held.version) return { ok: false, field: 'version', message: `${m.version} is not newer than the version held (${held.version})` };
      const merged: Record<string, unknown> = { ...held.snapshot, ...(raw as { set: Record<string, unknown> }).set };
      // keyed parts changed by element (contract/edgeDelta.ts); a wrong one makes another hash, refused below
      for (const [part, p] of Object.entries((raw as { patch?: EdgeDeltaMessage['patch'] }).patch ?? {}))
        if (p) merged[part] = applyPart(Array.isArray(merged[part]) ? (merged[part] as unknown[]) : [], p);
      const whole = validate(merged, EdgeSnapshot);
      if (!whole.ok) return { ok: false, field: `snapshot: ${whole.violations[0]?.field ?? '(body)'}`, message: whole.violations[0]?.message ?? '' };
      const hash = createHash('sha256').update(JSON.stringify(merged)).digest('hex');
      if (hash !== m.hash) return { ok: false, field: 'hash', message: 'does not match the snapshot the delta makes: kept the one held' };
      if (whole.value.controllerId !== controllerId) return { ok: false, field: 'set.controllerId', message: 'is not this controller' };
      held = hold(m.version, m.hash, merged as EdgeSnapshot, now(), m.builtAt);
      save();
      // what it changed, for the log: "identities 1 changed, 0 gone; doors whole"
      const parts = [
        ...Object.entries((raw as { patch?: EdgeDeltaMessage['patch'] }).patch ?? {}).map(
          ([k, p]) => `${k} ${p?.upsert.length} changed, ${p?.remove.length} gone`,
        ),
        ...Object.keys((raw as { set: object }).set).map((k) => `${k} whole`),
      ].join('; ');
      return { ok: true, version: m.version, parts };
    },
    /** Connected: the snapshot held is current now. */
    fresh() {
      if (!held) return;
      held.freshAt = now();
      save();
    },
  };
}
