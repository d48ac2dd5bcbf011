// Read-only lists over the audit trail and the UI error log: the same catalogue, no forms.
import { any } from 'superstruct';
import { PRIV, auditChangedFields, type AuditEntry, type StoredEvent, type UiErrorRow } from '../../contract';
import { consoleList } from '../../contract/consoleLists';
import { createElement } from 'react';
import { isDeniedSwipe, WhyButton } from '../screens/configure/WhyDrawer';
import { defineResource } from './defineResource';
import { showDateTime } from '../ui/time';

const when = (iso: string | null | undefined) => (iso ? showDateTime(iso) : '');
const changed = (r: AuditEntry) => auditChangedFields(r).join(', ');

export const activityReport = defineResource<AuditEntry>({
  ...consoleList('activity'),
  title: 'Activity report',
  singular: 'Change',
  path: '/report/activity',
  privileges: { view: PRIV.activityReport },
  input: any(),
  primary: { title: 'When', field: 'at', value: (r) => when(r.at), width: 215, zoned: true },
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

export const uiErrors = defineResource<UiErrorRow>({
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
export const eventHistory = defineResource<StoredEvent>({
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
    { field: 'message', title: 'Message', width: 360, sortable: false },
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
