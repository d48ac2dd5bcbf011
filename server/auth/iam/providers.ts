// A client's own identity providers (issue 49): the rows of the Manage screen (contract/resources/identityProviders.ts)
// as the sign-in sees them, beside the installation's provider named in the environment. A client's provider grants
// roles in its own client only (clientScope), whatever its groups say; its client secret is sealed at rest
// (./sealed.ts) and opened only to talk to the provider. The catalogue hooks check what the declaration cannot say (an
// issuer that is a URL, a role map naming roles of this client) and seal the secret before it is written.
import { createPublicKey } from 'node:crypto';
import { DEFAULT_GROUPS_ATTRIBUTE, fill, type Sentence, type Violation } from '../../../contract';
import type { Db } from '../../db/db';
import { activeProviderById, activeProvidersOf, knownRoleCodes, type ProviderRow } from '../../db/queries/iam';
import type { ResourceHooks } from '../../crud/hooks';
import { GROUP_NAME_MAX, envOidcProvider, type ProviderConfig, type RoleMapping } from './config';
import { forgetProvider } from './oidc';
import { open, seal } from './sealed';

/** How a client's provider is named in URLs, sessions, accounts and grants. */
export const rowKey = (id: number) => `idp-${id}`;
const KEY = /^idp-(\d{1,9})$/;
const purposeOf = (clientId: number) => `identity_providers.client_secret:${clientId}`;

/** `group=role-code` pairs, one per line or comma separated; throws a sentence naming the first bad pair. */
/** A role map refused: its sentence (key and values) beside the English. */
class RoleMapRefused extends Error {
  constructor(readonly said: Sentence) {
    super(said.message);
  }
}

export function parseClientRoleMap(text: string): { group: string; roleCode: string }[] {
  const out: { group: string; roleCode: string }[] = [];
  for (const raw of text.split(/[,\n]/)) {
    const part = raw.trim();
    if (!part) continue;
    const eq = part.lastIndexOf('=');
    const group = eq > 0 ? part.slice(0, eq).trim() : '';
    const roleCode = eq > 0 ? part.slice(eq + 1).trim() : '';
    if (!group || !roleCode || group.length > GROUP_NAME_MAX)
      throw new RoleMapRefused(fill('iam.notGroupRole', '“{part}” is not group=role-code', { part: part.slice(0, 80) }));
    out.push({ group, roleCode });
  }
  if (!out.length) throw new RoleMapRefused(fill('iam.namesNoGroup', 'names no group', {}));
  return out;
}

async function configOf(db: Db, r: ProviderRow): Promise<ProviderConfig | null> {
  let roleMap: RoleMapping[];
  try {
    roleMap = parseClientRoleMap(r.role_map).map((m) => ({ group: m.group, clientCode: r.client_code, roleCode: m.roleCode }));
  } catch {
    return null; // the form refuses such a map: a row written around it offers nothing
  }
  const common = {
    key: rowKey(Number(r.id)),
    name: r.name,
    issuer: r.issuer,
    roleMap,
    clientScope: Number(r.client_id),
    groupsAttribute: r.groups_attribute?.trim() || DEFAULT_GROUPS_ATTRIBUTE,
  };
  if (r.kind === 'saml') {
    if (!r.sso_url || !r.certificate) return null;
    return {
      ...common,
      kind: 'saml',
      ssoUrl: r.sso_url,
      certificate: r.certificate,
      sloUrl: r.slo_url?.trim() || null,
      signRequests: Boolean(r.sign_requests),
      encryptAssertions: Boolean(r.encrypt_assertions),
    };
  }
  if (!r.oidc_client_id) return null;
  const secret = r.client_secret ? await open(db, r.client_secret, purposeOf(Number(r.client_id))) : '';
  if (secret === null) return null; // sealed under another installation secret: typed again on the Manage screen
  return { ...common, kind: 'oidc', clientId: r.oidc_client_id, clientSecret: secret };
}

/** The providers the sign-in page offers: the environment's, and those of `clientId` when one is named. */
export async function offeredProviders(db: Db, clientId: number | null): Promise<ProviderConfig[]> {
  const env = envOidcProvider();
  const out: ProviderConfig[] = env ? [env] : [];
  if (clientId === null) return out;
  for (const r of await activeProvidersOf(db, clientId)) {
    const c = await configOf(db, r);
    if (c) out.push(c);
  }
  return out;
}

/** One provider by its key ('env' or `idp-<id>`), or null when it is not configured (or switched off). */
export async function providerByKey(db: Db, key: unknown): Promise<ProviderConfig | null> {
  if (key === 'env') return envOidcProvider();
  const m = typeof key === 'string' ? KEY.exec(key) : null;
  if (!m) return null;
  const row = await activeProviderById(db, Number(m[1]));
  return row ? configOf(db, row) : null;
}

/** The catalogue's hooks of the identity providers (server/resources/index.ts). */
export const identityProviderHooks = (): ResourceHooks => {
  const sealed = async (tx: Db, clientId: number | null, input: Record<string, unknown>) => {
    // the secret is written sealed, never as typed (the catalogue writes `input`'s value to the column)
    if (typeof input.clientSecret === 'string' && input.clientSecret !== '' && clientId !== null)
      input.clientSecret = await seal(tx, input.clientSecret, purposeOf(clientId));
    else if (input.clientSecret === '') delete input.clientSecret;
    return {};
  };
  return {
    async validate(ctx, input, before) {
      const out: Violation[] = [];
      const kind = input.kind ?? before?.kind;
      if (kind === 'oidc' && typeof input.issuer === 'string') {
        const u = URL.canParse(input.issuer) ? new URL(input.issuer) : null;
        if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password || u.hash)
          out.push({ field: 'issuer', ...fill('iam.issuerNotUrl', 'must be the provider’s http:// or https:// issuer URL', {}) });
      }
      if (kind === 'saml' && typeof input.certificate === 'string') {
        try {
          createPublicKey(input.certificate);
        } catch {
          out.push({ field: 'certificate', ...fill('iam.certificateNotPem', 'is not a PEM certificate (-----BEGIN CERTIFICATE-----) or public key', {}) });
        }
      }
      if (typeof input.roleMap === 'string') {
        try {
          const pairs = parseClientRoleMap(input.roleMap);
          const codes = [...new Set(pairs.map((p) => p.roleCode))];
          const known = new Set(await knownRoleCodes(ctx.tx, ctx.clientId, codes));
          const missing = codes.filter((c) => !known.has(c));
          if (missing.length)
            out.push({
              field: 'roleMap',
              ...fill('iam.roleMapUnknownRoles', 'names no role of this client: {roles}', { roles: missing.slice(0, 5).join(', ') }),
            });
        } catch (e) {
          if (!(e instanceof RoleMapRefused)) throw e;
          out.push({ field: 'roleMap', ...e.said });
        }
      }
      return out;
    },
    beforeInsert: (ctx, input) => sealed(ctx.tx, ctx.clientId, input),
    beforeUpdate: (ctx, input) => sealed(ctx.tx, ctx.clientId, input),
    afterCommit(_clientId, change) {
      forgetProvider(rowKey(change.id)); // what was discovered of it may be of its old issuer
    },
  };
};
