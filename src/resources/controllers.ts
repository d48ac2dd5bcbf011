// Controllers in the console: the declaration (contract/resources/hardware.ts) plus the console-only touches. The
// Edge column (issue 47) says since when an edge controller is online or offline in the user's zone (the server's
// text, kept for exports and the API, says it in UTC), wide enough to be read whole.
import { controllersResource } from '../../contract';
import { showDateTime } from '../ui/time';
import { fromDeclaration } from './defineResource';

const SINCE_UTC = /since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/;

/** The server's edge summary with its moment in the user's zone. */
export const edgeCell = (r: { edge?: string | null; edgeSince?: string | null }): string =>
  !r.edge ? '' : r.edgeSince ? r.edge.replace(SINCE_UTC, `since ${showDateTime(r.edgeSince, true)}`) : r.edge;

export const controllers = fromDeclaration<any>(controllersResource, {
  columns: { edge: { width: 520, value: edgeCell } },
});
