// Read-only lists over the audit trail and the UI error log: the same catalogue, no forms.
import { any, integer, nullable, optional, string, type } from 'superstruct';
import { API, AuditEntry, PRIV } from '../../contract';
import { defineResource } from './defineResource';

const when = (iso: string | null | undefined) => (iso ? iso.slice(0, 19).replace('T', ' ') : '');
const changed = (r: AuditEntry) => {
  const before = (r.before ?? {}) as Record<string, unknown>;
  const after = (r.after ?? {}) as Record<string, unknown>;
  if (r.before === null || r.after === null) return '';
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => k !== 'updatedAt' && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  return keys.join(', ');
};

export const activityReport = defineResource<AuditEntry>({
  name: 'activity',
  title: 'Activity report',
  singular: 'Change',
  path: '/report/activity',
  privileges: { view: PRIV.activityReport },
  schema: AuditEntry,
  input: any(),
  api: API.audit,
  primary: { title: 'When', field: 'at', value: (r) => when(r.at), width: 180 },
  columns: [
    { field: 'actor', title: 'Operator', width: 140, sortable: true },
    { field: 'action', title: 'Action', width: 130, sortable: true },
    { field: 'entity', title: 'What', width: 130, sortable: true },
    { field: 'entityId', title: 'Id', width: 80, sortable: false, value: (r) => r.entityId ?? '' },
    { field: 'changed', title: 'Fields changed', width: 320, sortable: false, value: changed },
  ],
  defaultSort: [{ field: 'at', dir: 'desc' }],
  filterPlaceholder: 'Search operator, action, what…',
  form: [],
});

export const UiErrorRow = type({ id: integer(), message: string(), url: string(), stack: optional(nullable(string())), at: optional(nullable(string())) });
export type UiErrorRow = { id: number; message: string; url: string; stack?: string | null; at?: string | null };

export const uiErrors = defineResource<UiErrorRow>({
  name: 'ui-errors',
  title: 'UI error log',
  singular: 'Error',
  path: '/server/ui-errors',
  privileges: { view: PRIV.errorLog },
  schema: UiErrorRow,
  input: any(),
  api: API.uiErrors,
  primary: { title: 'When', field: 'at', value: (r) => when(r.at), width: 180 },
  columns: [
    { field: 'message', title: 'Error', width: 360, sortable: false },
    { field: 'url', title: 'Screen', width: 220, sortable: false },
  ],
  defaultSort: [{ field: 'at', dir: 'desc' }],
  filterPlaceholder: 'Search errors…',
  form: [],
});
