// Service accounts [0.3.8.x] (issue 11): integrations' credentials, one client each. The account works with the
// privileges of its role in its client; its API key (`gh_<keyId>_<secret>`) is made by the server, shown once in the
// answer of create and of `POST …/:id/rotate-key`, kept only as a hash, and can be revoked (`POST …/:id/revoke-key`).
// A key is sent as `Authorization: Bearer <key>` or `X-API-Key: <key>` (REST), or as the STOMP CONNECT passcode or
// `api-key` header. Server hooks: server/resources/serviceAccounts.ts.
import { PRIV } from '../privileges';
import { choice, defineResource, switchField, text, timestamp } from './define';

/** The roles an integration may be given (seeded in every installation). */
export const SERVICE_ACCOUNT_ROLES = [
  { value: 'integration', label: 'Integration: read identities and doors' },
  { value: 'device-ingest', label: 'Device interface: send controller events' },
  { value: 'auditor', label: 'Auditor: read everything, change nothing' },
  { value: 'administrator', label: 'Administrator: everything in the client' },
] as const;

/** How an API key starts, so it is recognisable in logs and secret scanners. */
export const API_KEY_PREFIX = 'gh_';
/** `gh_<12 hex key id>_<43 base64url characters>` */
export const API_KEY_PATTERN = /^gh_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
/** The header an integration may carry its key in (besides `Authorization: Bearer`). */
export const API_KEY_HEADER = 'x-api-key';

/** The once-only answer of create and rotate-key: the row plus the key (never stored, never shown again). */
export interface IssuedApiKey {
  apiKey: string;
}

export const serviceAccountsResource = defineResource({
  name: 'serviceAccounts',
  table: 'service_accounts',
  api: '/idp/1.0/service-accounts',
  route: '/manage/service-accounts',
  section: 'manage',
  label: { one: 'Service account', many: 'Service accounts' },
  icon: 'key',
  privileges: PRIV.serviceAccounts,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, unique: 'tenant', uniqueMessage: 'is already the name of another service account', search: true, sort: true }),
    description: text({ max: 500, widget: 'textarea', wide: true, search: true }),
    role: choice(SERVICE_ACCOUNT_ROLES, {
      required: true,
      default: 'integration',
      sort: true,
      filter: true,
      help: 'The account works with this role\u2019s privileges in this client.',
    }),
    active: switchField({ label: 'Enabled', sort: true, help: 'A disabled account\u2019s key is refused at once.' }),
    keyPrefix: text({ label: 'API key', max: 40, readOnly: true }),
    keyIssuedAt: timestamp({ label: 'Key issued', sort: true }),
    keyRevokedAt: timestamp({ label: 'Key revoked' }),
  },
  list: { title: ['name'], columns: ['role', 'active', 'keyPrefix', 'keyIssuedAt', 'keyRevokedAt'], sort: ['name', 'asc'] },
  // the API the keys call, described for integrators (server/openapi: the reference page at /api/docs)
  screens: {
    shownOnce: [{ field: 'apiKey', label: 'API key' }],
    toolbarLinks: [{ label: 'API reference', route: '/api/docs', privilege: PRIV.serviceAccounts.view, icon: 'manual', external: true }],
  },
  form: [
    {
      title: 'Service account',
      description: 'The API key is shown once, after saving. Keep it in the integration\u2019s secret store.',
      fields: ['name', 'description', 'role', 'active'],
    },
  ],
  export: ['csv', 'ndjson'],
});
