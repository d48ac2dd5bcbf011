// The shift handover's digest (issue 31, part 3; contract/handover.ts): what the next shift must know, read from the
// stored events, alarms, doors, hardware, visitors and audit of one client within the reader's divisions (the division
// scope of the alarms list: events, doors and controllers of the user's divisions, and of none).
import { eventLabel } from '../../contract';
import type { HandoverAlarm, HandoverDigest, HandoverDoor, HandoverOffline } from '../../contract/handover';
import type { Db } from '../db/db';
import { ABNORMAL_MODES, ABNORMAL_STATUSES, acknowledgementRows, databaseNow, digestRows } from '../db/queries/handover';
import { iso } from '../db/values';
import type { Shift } from './shifts';

const name = (first: unknown, last: unknown) => [first, last].filter((x) => x).join(' ');

/** The digest of `shift` for one client, within `divisions` (null: all). */
export async function handoverDigest(
  db: Db,
  clientId: number,
  shift: Shift,
  divisions: readonly number[] | null,
): Promise<Omit<HandoverDigest, 'acknowledgement' | 'previousNote'>> {
  const asOf = await databaseNow(db);
  const { raised, processed, open, notes, doorRows, overrides, threat, controllers, readers, visitors, byReason, shelved, repeated } = await digestRows(
    db,
    clientId,
    shift,
    divisions,
  );
  const alarms: HandoverAlarm[] = open.map((a) => ({
    id: Number(a.event_id),
    priority: Number(a.priority),
    name: a.type_name ?? eventLabel(a.event_code),
    point: a.event_point_name ?? '',
    raisedAt: iso(a.raised_at)!,
    state: a.state,
    acknowledgedBy: a.acknowledged_by ?? null,
    processedAt: iso(a.processed_at),
    notes: notes
      .filter((n) => Number(n.alarm_id) === Number(a.event_id))
      .map((n) => ({ at: iso(n.at)!, actor: n.actor ?? null, action: n.action, note: n.note })),
  }));

  const doors: HandoverDoor[] = [];
  for (const d of doorRows) {
    const base = { id: Number(d.id), name: d.name, division: d.division ?? null, detail: null, until: null };
    if (ABNORMAL_STATUSES.includes(d.status)) doors.push({ ...base, kind: 'status', state: d.status, since: iso(d.status_since) });
    if (ABNORMAL_MODES.includes(d.mode)) doors.push({ ...base, kind: 'mode', state: d.mode, since: iso(d.mode_since) });
  }
  for (const o of overrides)
    doors.push({
      id: Number(o.id),
      name: o.name,
      division: o.division ?? null,
      kind: 'override',
      state: o.mode,
      detail: o.override,
      since: iso(o.applied_start_at),
      until: iso(o.ends_at),
    });
  const offline: HandoverOffline[] = [
    ...controllers.map((c) => ({ kind: 'controller', id: Number(c.id), name: c.name, since: iso(c.since) })),
    ...readers.map((r) => ({ kind: 'reader', id: Number(r.id), name: `${r.name} reader`, since: iso(r.at) })),
  ];
  return {
    zone: shift.zone,
    start: shift.start.toISOString(),
    end: shift.end.toISOString(),
    asOf: asOf.toISOString(),
    alarms: {
      raised: raised.reduce((n, r) => n + Number(r.n), 0),
      processed: Number(processed.n),
      byPriority: raised.map((r) => ({ priority: Number(r.priority), count: Number(r.n) })),
      open: alarms,
    },
    doors,
    shelvings: shelved.map((r) => ({
      id: Number(r.id),
      pointName: r.point_name ?? null,
      reason: r.reason,
      by: r.shelved_by,
      at: iso(r.shelved_at)!,
      until: iso(r.until)!,
      endedAt: iso(r.ended_at),
    })),
    threatLevel: threat
      ? {
          name: threat.name,
          rank: Number(threat.rank),
          mode: threat.mode,
          division: threat.division ?? null,
          since: iso(threat.set_at)!,
          setBy: threat.set_by,
          until: iso(threat.until),
        }
      : null,
    offline,
    visitors: visitors.map((v) => ({
      id: Number(v.id),
      name: name(v.first_name, v.last_name),
      company: v.company ?? null,
      host: v.host_name,
      signedInAt: iso(v.signed_in_at),
    })),
    denials: {
      total: byReason.reduce((n, r) => n + Number(r.n), 0),
      byReason: byReason.map((r) => ({ code: Number(r.event_code), label: eventLabel(r.event_code), count: Number(r.n) })),
      repeated: repeated.map((r) => ({
        credential: r.credential,
        name: name(r.first_name, r.last_name) || null,
        count: Number(r.n),
        doors: (r.doors as string[]).filter((x) => x),
      })),
    },
  };
}

/** The acknowledgement of the shift ending at `end`, and the note left at the one before it. */
export async function acknowledgements(db: Db, clientId: number, shift: Shift): Promise<Pick<HandoverDigest, 'acknowledgement' | 'previousNote'>> {
  const rows = await acknowledgementRows(db, clientId, shift.end);
  const mine = rows.find((r) => new Date(r.shift_end).getTime() === shift.end.getTime());
  const before = rows.find((r) => new Date(r.shift_end).getTime() < shift.end.getTime() && r.note);
  return {
    acknowledgement: mine
      ? { id: Number(mine.id), by: mine.acknowledged_by, name: mine.name || mine.acknowledged_by, at: iso(mine.acknowledged_at)!, note: mine.note ?? null }
      : null,
    previousNote: before
      ? { by: before.acknowledged_by, name: before.name || before.acknowledged_by, at: iso(before.acknowledged_at)!, note: before.note }
      : null,
  };
}

export async function fullDigest(db: Db, clientId: number, shift: Shift, divisions: readonly number[] | null): Promise<HandoverDigest> {
  return { ...(await handoverDigest(db, clientId, shift, divisions)), ...(await acknowledgements(db, clientId, shift)) };
}
