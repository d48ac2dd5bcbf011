// Read-only lists over the audit trail and the UI error log: the same catalogue, no forms.
import { any } from 'superstruct';
import {
  ACTIVITY_FILE_COLUMNS,
  PRIV,
  activityCells,
  auditActionWords,
  auditChangedFields,
  auditEntityName,
  auditEntityWords,
  type AuditEntry,
  type StoredEvent,
  type UiErrorRow,
} from '../../contract';
import { sayEvent, tx } from '../i18n';
import { consoleList } from '../../contract/consoleLists';
import { createElement } from 'react';
import { isDeniedSwipe, WhyButton } from '../screens/configure/WhyDrawer';
import { consoleResource } from './consoleResource';
import { showDateTime } from '../ui/time';

const when = (iso: string | null | undefined) => (iso ? showDateTime(iso) : '');
const changed = (r: AuditEntry) => auditChangedFields(r).join(', ');
/** "Door: Main Entrance" (the kind in plain words and the record's name; its id when it has no name). */
const what = (r: AuditEntry) => {
  const name = r.entityName ?? auditEntityName(r) ?? (r.entityId ? `#${r.entityId}` : '');
  return name ? `${tx(auditEntityWords(r.entity))}: ${name}` : tx(auditEntityWords(r.entity));
};

export const activityReport = consoleResource<AuditEntry>({
  ...consoleList('activity'),
  title: 'Activity report',
  singular: 'Change',
  path: '/report/activity',
  privileges: { view: PRIV.activityReport },
  input: any(),
  primary: { title: 'When', field: 'at', value: (r) => when(r.at), width: 215, zoned: true },
  // issue 50: people's names and plain words, not usernames and codes (the file keeps both, and the ids)
  columns: [
    { field: 'actor', title: 'Operator', width: 160, sortable: true, value: (r) => r.actorName ?? r.actor },
    { field: 'action', title: 'Action', width: 170, sortable: true, value: (r) => tx(auditActionWords(r.action)) },
    { field: 'entity', title: 'What', width: 240, sortable: true, value: what },
    { field: 'changed', title: 'Fields changed', width: 320, sortable: false, value: changed },
  ],
  defaultSort: [{ field: 'at', dir: 'desc' }],
  file: { columns: ACTIVITY_FILE_COLUMNS.slice(1), cells: (r) => activityCells(r, tx) },
  filterPlaceholder: 'Search operator, action, what…',
  form: [],
});

export const uiErrors = consoleResource<UiErrorRow>({
  ...consoleList('ui-errors'),
  title: 'UI error log',
  singular: 'Error',
  path: '/server/ui-errors',
  privileges: { view: PRIV.errorLog },
  input: any(),
  primary: { title: 'When', field: 'at', value: (r) => when(r.at), width: 215, zoned: true },
  columns: [
    { field: 'message', title: 'Error', width: 360, sortable: false },
    { field: 'url', title: 'Screen', width: 220, sortable: false },
  ],
  defaultSort: [{ field: 'at', dir: 'desc' }],
  filterPlaceholder: 'Search errors…',
  form: [],
});

/** The event history [0.6.2.0] over millions of stored events: paged and sorted on the server, filtered by the screen. */
export const eventHistory = consoleResource<StoredEvent>({
  ...consoleList('event-history'),
  title: 'Event report',
  singular: 'Event',
  path: '/report/event',
  privileges: { view: PRIV.eventReport },
  input: any(),
  primary: { title: 'When', field: 'time', value: (r) => when(r.time), width: 215, zoned: true },
  columns: [
    { field: 'eventCode', title: 'Code', width: 80, sortable: true, value: (r) => String(r.eventCode) },
    { field: 'eventPointName', title: 'Point', width: 200, sortable: true, value: (r) => r.eventPointName ?? String(r.eventPointId ?? r.eventSourceId) },
    { field: 'message', title: 'Message', width: 360, sortable: false, value: (r) => sayEvent(r) }, // issue 48: by its key
    {
      field: 'alert',
      title: 'Alarm',
      width: 120,
      sortable: false,
      value: (r) => (!r.alert ? '' : r.process ? 'Processed' : r.acknowledge ? 'Acknowledged' : 'Open'),
    },
    { field: 'priority', title: 'Priority', width: 80, sortable: true, value: (r) => (r.alert ? String(r.priority) : '') },
    { field: 'id', title: 'Id', width: 90, sortable: true, value: (r) => String(r.id) },
    // issue 12: a denied swipe explains itself
    {
      field: 'why',
      title: 'Why?',
      width: 90,
      sortable: false,
      value: () => '',
      render: (r) => (isDeniedSwipe(r.eventCode) ? createElement(WhyButton, { eventId: r.id }) : null),
    },
  ],
  defaultSort: [{ field: 'id', dir: 'desc' }],
  filterPlaceholder: 'Search message or point…',
  form: [],
});
