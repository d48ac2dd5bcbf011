// Controllers in the console: the declaration (contract/resources/hardware.ts) plus the console-only touches. The
// Edge columns (issue 47) are composed here from the parts the server answers (edgeState, edgeSince, edgeSnapshot,
// edgeApplied, edgePending, edgeVersion, edgeDegraded, edgeMaxOfflineDays), in the user's zone (named in the Edge
// column's header) and language (the server's `edge` text, in English and UTC, is kept for exports and the API): the
// link since when with its buffered events and version (and, offline, its doors whose anti-passback is soft); the
// snapshot the edge holds, its version and real age (since the server built it, as the edge reported applying it) and,
// offline, for how long it has not been refreshed; its doors' degraded policy. Each wraps in its column (the row as tall
// as its lines), whole at 1440 px and on a phone.
import { controllersResource } from '../../contract';
import { getLocale, tx } from '../i18n';
import { showDateTime } from '../ui/time';
import { fromDeclaration } from './consoleResource';

export interface EdgeParts {
  edgeState?: string | null;
  edgeSince?: string | null;
  edgeSnapshot?: number | null;
  edgeApplied?: number | null;
  edgePending?: number | null;
  edgeVersion?: string | null;
  edgeDegraded?: string | null;
  edgeMaxOfflineDays?: number | null;
  /** when the server built the snapshot version the edge applied, and when the edge applied it (ISO) */
  edgeBuiltAt?: string | null;
  edgeAppliedAt?: string | null;
  /** its doors in a zone of hard anti-passback: soft while the edge is offline */
  edgeSoftApb?: number | null;
}

const join = (parts: string[]) => parts.join(getLocale() === 'zh-CN' ? '，' : ', ');

/** An edge controller's link since when, its buffered events and its version; '' for none. */
export function edgeCell(r: EdgeParts): string {
  if (!r.edgeState) return '';
  const at = r.edgeSince ? showDateTime(r.edgeSince) : null;
  return join([
    r.edgeState === 'online' ? (at ? tx('online since {at}', { at }) : tx('online')) : at ? tx('offline since {at}', { at }) : tx('offline, never connected'),
    // offline, its doors' hard anti-passback lets a repeat through and logs it: said where the link's loss is
    ...(r.edgeState !== 'online' && r.edgeSoftApb
      ? [r.edgeSoftApb === 1 ? tx('anti-passback soft at 1 door') : tx('anti-passback soft at {n} doors', { n: r.edgeSoftApb })]
      : []),
    tx('{count} buffered', { count: r.edgePending ?? 0 }),
    ...(r.edgeVersion ? [tx('edge {version}', { version: r.edgeVersion })] : []),
  ]);
}

/** How old a span is, in its largest whole unit. */
function age(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return tx('{n} min old', { n: minutes });
  if (minutes < 48 * 60) return tx('{n} h old', { n: Math.floor(minutes / 60) });
  return tx('{n} d old', { n: Math.floor(minutes / 1440) });
}

/** A span in its largest whole unit (offline for …). */
function span(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return tx('{n} min', { n: minutes });
  if (minutes < 48 * 60) return tx('{n} h', { n: Math.floor(minutes / 60) });
  return tx('{n} d', { n: Math.floor(minutes / 1440) });
}

/**
 * The snapshot the edge holds: its version (and the one sent, when the edge is behind) and its real age, since the
 * server built that version (its rules' last change, as the edge reported applying it); online it is up to date (or
 * being applied), offline it has not been refreshed since the link's loss, and past the client's limit of days.
 */
export function snapshotCell(r: EdgeParts, now = Date.now()): string {
  if (!r.edgeState) return '';
  const behind = r.edgeApplied !== r.edgeSnapshot;
  const version = behind
    ? tx('snapshot v{version} (applied v{applied})', { version: r.edgeSnapshot ?? 0, applied: r.edgeApplied ?? 0 })
    : tx('snapshot v{version}', { version: r.edgeSnapshot ?? 0 });
  const built = r.edgeBuiltAt ? [age(now - Date.parse(r.edgeBuiltAt))] : [];
  if (r.edgeState === 'online') return join([version, ...built, behind ? tx('being applied') : tx('up to date')]);
  if (!r.edgeSince) return join([version, ...built]);
  const off = now - Date.parse(r.edgeSince);
  const days = r.edgeMaxOfflineDays ?? 7;
  return join([version, ...built, tx('offline {span}', { span: span(off) }), ...(off > days * 86_400_000 ? [tx('past its {days} days', { days })] : [])]);
}

const POLICY: Record<string, () => string> = {
  keep: () => tx('keep deciding'),
  facility: () => tx('facility code only'),
  locked: () => tx('locked'),
};

/** What its doors do once its snapshot is older than allowed: one policy, or each with its number of doors. */
export function degradedCell(r: EdgeParts): string {
  if (!r.edgeState || !r.edgeDegraded) return '';
  const counts = r.edgeDegraded.split(',').map((x) => x.split(':'));
  if (counts.length === 1) return POLICY[counts[0][0]]?.() ?? counts[0][0];
  return join(counts.map(([p, n]) => tx('{policy} ({n} doors)', { policy: POLICY[p]?.() ?? p, n })));
}

/** An access zone's anti-passback (`label`, its choice's words) and, while its doors on an edge controller that is
 *  offline are soft (contract accessZones edgeSoftDoors), how many and which controllers. */
export function zoneApbCell(r: { edgeSoftDoors?: number | null; edgeSoftControllers?: string | null }, label: string): string {
  const n = r.edgeSoftDoors ?? 0;
  if (!n) return label;
  const controllers = r.edgeSoftControllers ?? '';
  return n === 1
    ? tx('{label}: soft at 1 door while {controllers} is offline', { label, controllers })
    : tx('{label}: soft at {n} doors while {controllers} is offline', { label, n, controllers });
}

/** A door's hard anti-passback soft while its edge controller is offline (contract DoorView softApb). */
export const doorSoftApbText = (controllers: string) => tx('Anti-passback soft while {controllers} is offline', { controllers });

export const controllers = fromDeclaration<any>(controllersResource, {
  primary: { width: 170 },
  columns: {
    ipAddress: { width: 110 },
    status: { width: 90 },
    firmware: { width: 110 },
    edge: { width: 320, value: edgeCell, zoned: true, wrap: true },
    edgeSnapshot: { width: 190, title: 'Snapshot', value: (r: EdgeParts) => snapshotCell(r), wrap: true },
    edgeDegraded: { width: 120, value: degradedCell, wrap: true },
  },
});
