// Service accounts and web hooks in the console (issue 11): the declarations (contract/resources/serviceAccounts.ts,
// webHooks.ts) plus the console-only touches.
import type { Infer } from 'superstruct';
import { SERVICE_ACCOUNT_ROLES, WEB_HOOK_EVENTS, rowSchema, serviceAccountsResource, webHooksResource } from '../../contract';
import { fromDeclaration } from './consoleResource';
import { tx } from '../i18n';

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the schema is built to name its row type
const ServiceAccountRow = rowSchema(serviceAccountsResource);
export type ServiceAccount = Infer<typeof ServiceAccountRow>;
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- idem
const WebHookRow = rowSchema(webHooksResource);
export type WebHook = Infer<typeof WebHookRow>;

export const roleLabel = (v: string) => SERVICE_ACCOUNT_ROLES.find((r) => r.value === v)?.label.split(':')[0] ?? v;

export const serviceAccounts = fromDeclaration<ServiceAccount>(serviceAccountsResource, {
  primary: { title: 'Service account', width: 420 },
  columns: {
    role: { width: 150, value: (r) => roleLabel(r.role) },
    active: { title: 'Enabled', width: 90 },
    keyPrefix: {
      title: 'API key',
      width: 200,
      value: (r) => (r.keyRevokedAt ? tx('{prefix} (revoked)', { prefix: r.keyPrefix ?? '' }) : (r.keyPrefix ?? tx('No key'))),
    },
    keyIssuedAt: { width: 190 },
    keyRevokedAt: { width: 190 },
  },
  filterPlaceholder: 'Search service accounts…',
});

export const webHooks = fromDeclaration<WebHook>(webHooksResource, {
  primary: { title: 'Web hook', width: 340 },
  columns: {
    url: { title: 'Target', width: 320 },
    active: { title: 'Enabled', width: 90 },
    alarmRaised: { width: 110 },
    accessDenied: { width: 120 },
    updatedAt: { width: 190 },
  },
  filterPlaceholder: 'Search web hooks…',
  // the generic add form turns every switch on; a new hook subscribes to nothing until the operator ticks events
  initial: () => ({ active: true, ...Object.fromEntries(WEB_HOOK_EVENTS.map((e) => [e.field, false])) }),
});
