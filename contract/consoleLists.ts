// The lists the console declares for itself over the server's own endpoints (not catalogue resources): each one's
// REST path and row. The one source for the report screens (src/resources/reports.ts) and the console's wiring
// (src/system/logic.ts), which makes their list machines by these names.
import { API } from './api';
import { StoredEvent } from './realtime';
import { AuditEntry, UiErrorRow } from './schemas';

export const CONSOLE_LISTS = {
  activity: { api: API.audit, schema: AuditEntry },
  'ui-errors': { api: API.uiErrors, schema: UiErrorRow },
  'event-history': { api: API.events, schema: StoredEvent },
} as const;
export type ConsoleListName = keyof typeof CONSOLE_LISTS;

/** A console list's name, REST path and row, as a list declaration (src/resources/defineResource) takes them. */
export const consoleList = <N extends ConsoleListName>(name: N) => ({ name, ...CONSOLE_LISTS[name] });
