// The shift handover as the lines of a scheduled report (one per item, the shift's instants first).
import type { HandoverDigest } from '../../contract/handover';

/** The digest as the lines of a scheduled report (one per item, the shift's instants first). */
export const HANDOVER_COLUMNS = ['shiftStart', 'shiftEnd', 'section', 'item', 'state', 'since', 'detail'] as const;
export function handoverLines(d: HandoverDigest): unknown[][] {
  const line = (section: string, item: string, state: string | number | null, since: string | null, detail: string | null) => [
    d.start,
    d.end,
    section,
    item,
    state,
    since,
    detail,
  ];
  return [
    line('alarms', 'Raised', d.alarms.raised, null, d.alarms.byPriority.map((p) => `P${p.priority}: ${p.count}`).join(', ') || null),
    line('alarms', 'Processed', d.alarms.processed, null, null),
    ...d.alarms.open.map((a) =>
      line(
        'open alarm',
        `P${a.priority} ${a.name} at ${a.point}`,
        a.state,
        a.raisedAt,
        [a.acknowledgedBy ? `acknowledged by ${a.acknowledgedBy}` : null, ...a.notes.map((n) => `${n.actor ?? 'system'}: ${n.note}`)]
          .filter((x) => x)
          .join('; ') || null,
      ),
    ),
    ...d.doors.map((x) =>
      line('door', x.name, `${x.kind}: ${x.state}`, x.since, [x.detail, x.until ? `until ${x.until}` : null].filter((y) => y).join(', ') || null),
    ),
    ...(d.threatLevel
      ? [
          line(
            'threat level',
            d.threatLevel.name,
            d.threatLevel.mode,
            d.threatLevel.since,
            `set by ${d.threatLevel.setBy}${d.threatLevel.division ? ` in ${d.threatLevel.division}` : ''}`,
          ),
        ]
      : []),
    ...d.offline.map((x) => line('offline', x.name, x.kind, x.since, null)),
    ...d.visitors.map((v) => line('visitor', v.name, 'on site', v.signedInAt, `visiting ${v.host}${v.company ? `, ${v.company}` : ''}`)),
    line('denials', 'Denied swipes', d.denials.total, null, d.denials.byReason.map((r) => `${r.label}: ${r.count}`).join('; ') || null),
    ...d.denials.repeated.map((r) =>
      line('repeated denials', r.name ? `${r.credential} (${r.name})` : r.credential, r.count, null, r.doors.join(', ') || null),
    ),
    ...(d.acknowledgement ? [line('acknowledged', d.acknowledgement.name, 'acknowledged', d.acknowledgement.at, d.acknowledgement.note)] : []),
  ];
}
