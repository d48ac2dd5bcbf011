// Controllers in the console: the declaration (contract/resources/hardware.ts) plus the console-only touches. The
// Edge column (issue 47) is composed here from the parts the server answers (edgeState, edgeSince, edgeSnapshot,
// edgeApplied, edgePending, edgeVersion): since when an edge controller is online or offline in the user's zone,
// in the console's language (the server's `edge` text, in English and UTC, is kept for exports and the API), wide
// enough to be read whole.
import { controllersResource } from '../../contract';
import { getLocale, tx } from '../i18n';
import { showDateTime } from '../ui/time';
import { fromDeclaration } from './defineResource';

export interface EdgeParts {
  edgeState?: string | null;
  edgeSince?: string | null;
  edgeSnapshot?: number | null;
  edgeApplied?: number | null;
  edgePending?: number | null;
  edgeVersion?: string | null;
}

/** An edge controller's link, snapshot, buffered events and version in the user's zone and language; '' for none. */
export function edgeCell(r: EdgeParts): string {
  if (!r.edgeState) return '';
  const at = r.edgeSince ? showDateTime(r.edgeSince, true) : null;
  const parts = [
    r.edgeState === 'online' ? (at ? tx('online since {at}', { at }) : tx('online')) : at ? tx('offline since {at}', { at }) : tx('offline, never connected'),
    r.edgeApplied === r.edgeSnapshot
      ? tx('snapshot v{version}', { version: r.edgeSnapshot ?? 0 })
      : tx('snapshot v{version} (applied v{applied})', { version: r.edgeSnapshot ?? 0, applied: r.edgeApplied ?? 0 }),
    tx('{count} buffered', { count: r.edgePending ?? 0 }),
    ...(r.edgeVersion ? [tx('edge {version}', { version: r.edgeVersion })] : []),
  ];
  return parts.join(getLocale() === 'zh-CN' ? '，' : ', ');
}

export const controllers = fromDeclaration<any>(controllersResource, {
  columns: { edge: { width: 520, value: edgeCell } },
});
