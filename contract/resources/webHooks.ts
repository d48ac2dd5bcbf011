// Web hooks [0.3.4.4–0.3.4.7] (issue 11): per client, an HTTPS (or HTTP) endpoint told about the event types it
// subscribes to. Each delivery is a POST of JSON signed with the hook's secret: `X-Gatehouse-Timestamp: <unix s>`,
// `X-Gatehouse-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`. Deliveries come from a durable outbox and
// are retried with exponential backoff; every attempt is kept (the histories screen, `GET …/:id/attempts`) and a
// delivery can be sent again (`POST …/:id/redeliver` {outboxId}). Server: server/webhooks/.
import { array, boolean, enums, integer, nullable, object, optional, string, type Infer } from '../structs';
import { PRIV } from '../privileges';
import { int32 } from '../primitives';
import { defineResource, switchField, text } from './define';

/** The event types a hook may subscribe to, and the switch (column) that says so. */
export const WEB_HOOK_EVENTS = [
  { type: 'alarm.raised', field: 'alarmRaised', label: 'Alarm raised' },
  { type: 'alarm.acknowledged', field: 'alarmAcknowledged', label: 'Alarm acknowledged' },
  { type: 'alarm.processed', field: 'alarmProcessed', label: 'Alarm processed' },
  // issue 50: an alarm nobody acknowledged in time went to the next escalation group (data.step, operatorGroupName)
  { type: 'alarm.escalated', field: 'alarmEscalated', label: 'Alarm escalated' },
  { type: 'access.granted', field: 'accessGranted', label: 'Access granted' },
  { type: 'access.denied', field: 'accessDenied', label: 'Access denied' },
  { type: 'door.state', field: 'doorState', label: 'Door state changed' },
  { type: 'identity.changed', field: 'identityChanged', label: 'Identity changed' },
  // issue 45: each signed head of the client's audit chain, as it is signed (migration 135): a receiver keeping them is a
  // witness the installation does not control
  { type: 'audit.head', field: 'auditHead', label: 'Audit head signed' },
  // issue 50: leave requested (for its approvers) and decided (approved or rejected, with the note)
  { type: 'leave.requested', field: 'leaveRequested', label: 'Leave requested' },
  { type: 'leave.decided', field: 'leaveDecided', label: 'Leave approved or rejected' },
] as const;
export type WebHookEventType = (typeof WEB_HOOK_EVENTS)[number]['type'];

export const WEBHOOK_TIMESTAMP_HEADER = 'x-gatehouse-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'x-gatehouse-signature';
/** Attempts of one delivery at most (the first and its retries). */
export const WEBHOOK_MAX_ATTEMPTS = 8;
/** Backoff before retry n (1-based): 5 s, 10 s, 20 s … at most 1 h. */
export const webhookBackoffMs = (attempt: number, baseMs = 5000) => Math.min(3_600_000, baseMs * 2 ** Math.max(0, attempt - 1));

const off = { default: false } as const;

export const webHooksResource = defineResource({
  name: 'webHooks',
  table: 'web_hooks',
  api: '/event/manage/web-hooks',
  route: '/manage/web-hooks',
  section: 'manage',
  label: { one: 'Web hook', many: 'Web hooks' },
  icon: 'globe-network',
  privileges: { view: PRIV.webHooks.view, add: PRIV.webHooks.add, edit: PRIV.webHooks.edit },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, unique: 'tenant', uniqueMessage: 'is already the name of another web hook', search: true, sort: true }),
    description: text({ max: 500, search: true, wide: true, placeholder: 'What the receiver does with it' }),
    url: text({
      label: 'Target URL',
      max: 2000,
      required: true,
      search: true,
      wide: true,
      pattern: /^https?:\/\/[^\s/?#]+[^\s]*$/,
      help: 'An http:// or https:// address the server can reach',
      placeholder: 'https://example.com/gatehouse',
    }),
    secret: text({ max: 200, min: 16, required: true, writeOnly: true, help: 'At least 16 characters; signs every delivery (HMAC-SHA256)' }),
    active: switchField({ label: 'Enabled', sort: true }),
    alarmRaised: switchField(off),
    alarmAcknowledged: switchField(off),
    alarmProcessed: switchField(off),
    alarmEscalated: switchField(off),
    accessGranted: switchField(off),
    accessDenied: switchField(off),
    doorState: switchField({ ...off, label: 'Door state' }),
    identityChanged: switchField(off),
    auditHead: switchField({ ...off, label: 'Audit head signed' }),
    leaveRequested: switchField({ ...off, label: 'Leave requested' }),
    leaveDecided: switchField({ ...off, label: 'Leave approved or rejected' }),
  },
  list: { title: ['name'], columns: ['url', 'active', 'alarmRaised', 'accessDenied', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    { title: 'Web hook', fields: ['name', 'description', 'url', 'secret', 'active'] },
    { title: 'Events', description: 'Which events are sent to this address.', fields: WEB_HOOK_EVENTS.map((e) => e.field) },
  ],
  export: ['csv', 'ndjson'],
  audit: { omit: ['secret'] },
  screens: { rowLinks: [{ label: 'History', route: '/manage/web-hooks/histories/:id', icon: 'history' }] },
});

// ---------- the histories screen: every attempt of every delivery of one hook ----------
/** `GET …/:id/attempts?page&size&outcome=ok|failed&eventType=…` */
export const WebHookAttemptQuery = object({
  page: optional(int32(0, 10_000_000)),
  size: optional(int32(1, 200)),
  outcome: optional(enums(['ok', 'failed'])),
  eventType: optional(enums(WEB_HOOK_EVENTS.map((e) => e.type))),
});
export type WebHookAttemptQuery = Infer<typeof WebHookAttemptQuery>;

export const WebHookAttempt = object({
  id: integer(),
  deliveryId: integer(),
  eventType: string(),
  attempt: integer(),
  status: nullable(integer()),
  ok: boolean(),
  latencyMs: integer(),
  error: nullable(string()),
  response: nullable(string()),
  at: string(),
  /** The delivery's state now: pending (a retry is due), delivered, failed (attempts used up). */
  deliveryState: enums(['pending', 'delivered', 'failed']),
});
export type WebHookAttempt = Infer<typeof WebHookAttempt>;
export const WebHookAttemptPage = object({ items: array(WebHookAttempt), total: integer(), page: integer(), size: integer() });
export type WebHookAttemptPage = Infer<typeof WebHookAttemptPage>;

/** `POST …/:id/redeliver` {deliveryId}: send that delivery again now. */
export const RedeliverRequest = object({ deliveryId: int32(1) });
export type RedeliverRequest = Infer<typeof RedeliverRequest>;
