// IAM mode (issue 49): the identity providers an installation names in its environment. One OpenID Connect provider
// for everything: IAM_OIDC_ISSUER, IAM_OIDC_CLIENT_ID, IAM_OIDC_CLIENT_SECRET, IAM_OIDC_ROLE_MAP (and IAM_OIDC_NAME,
// the words on the sign-in button). Its group mapping may name any client: the installation's operator set it.

/** One group of the provider mapped to a role of one client (by the client's code and the role's code). */
export interface RoleMapping {
  group: string;
  clientCode: string;
  roleCode: string;
}

export interface OidcProviderConfig {
  /** How the provider is named in URLs, sessions and the audit trail ('env' for the environment's). */
  key: string;
  kind: 'oidc';
  /** Words on the sign-in button: "Sign in with <name>". */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  roleMap: RoleMapping[];
  /** The one client a client's provider may grant in; null: the installation's, any client. */
  clientScope: number | null;
  /** The ID token's claim that lists the person's groups. */
  groupsAttribute: string;
}

/** A client's SAML 2.0 identity provider (server/auth/iam/saml.ts). */
export interface SamlProviderConfig {
  key: string;
  kind: 'saml';
  name: string;
  /** The identity provider's entity ID (the assertion's Issuer). */
  issuer: string;
  /** Its HTTP-Redirect single sign-on address. */
  ssoUrl: string;
  /** Its signing certificate (PEM): the only key whose signatures are taken. */
  certificate: string;
  /** Its HTTP-Redirect single logout address; null: a sign-out ends the Gatehouse session only. */
  sloUrl: string | null;
  /** Gatehouse signs its AuthnRequests and logout messages (./spKeys.ts). */
  signRequests: boolean;
  /** An assertion not encrypted for Gatehouse's key is refused. */
  encryptAssertions: boolean;
  roleMap: RoleMapping[];
  clientScope: number | null;
  /** The attribute that lists the person's groups. */
  groupsAttribute: string;
}

export type ProviderConfig = OidcProviderConfig | SamlProviderConfig;

/** The most groups a person may bring: a claim past it is refused (issue 49: 100,000 entries). */
export const GROUPS_MAX = 1000;
/** A group's name past this length is refused with the claim. */
export const GROUP_NAME_MAX = 256;

/** `group=CLIENTCODE:role-code,…`: a group names a client by its code and one of its roles; several lines per group may be given. */
export function parseRoleMap(text: string): RoleMapping[] {
  const out: RoleMapping[] = [];
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (!part) continue;
    const eq = part.lastIndexOf('=');
    const group = eq > 0 ? part.slice(0, eq).trim() : '';
    const target = eq > 0 ? part.slice(eq + 1).trim() : '';
    const colon = target.indexOf(':');
    const clientCode = colon > 0 ? target.slice(0, colon).trim() : '';
    const roleCode = colon > 0 ? target.slice(colon + 1).trim() : '';
    if (!group || !clientCode || !roleCode || group.length > GROUP_NAME_MAX)
      throw new Error(`IAM role map: "${part}" is not group=CLIENTCODE:role-code (for example gatehouse-operators=NORTHWIND:security-operator)`);
    out.push({ group, clientCode, roleCode });
  }
  return out;
}

/** The environment's provider, or null when IAM_OIDC_ISSUER is not set; a half-given one throws, naming what is missing. */
export function envOidcProvider(env: NodeJS.ProcessEnv = process.env): OidcProviderConfig | null {
  const issuer = env.IAM_OIDC_ISSUER?.trim();
  if (!issuer) return null;
  const missing = ['IAM_OIDC_CLIENT_ID', 'IAM_OIDC_ROLE_MAP'].filter((n) => !env[n]?.trim());
  if (missing.length) throw new Error(`IAM_OIDC_ISSUER is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not`);
  let host: string;
  try {
    host = new URL(issuer).host;
  } catch {
    throw new Error(`IAM_OIDC_ISSUER is not a URL: ${issuer}`);
  }
  return {
    key: 'env',
    kind: 'oidc',
    name: env.IAM_OIDC_NAME?.trim() || host,
    issuer,
    clientId: env.IAM_OIDC_CLIENT_ID!.trim(),
    clientSecret: env.IAM_OIDC_CLIENT_SECRET ?? '',
    roleMap: parseRoleMap(env.IAM_OIDC_ROLE_MAP!),
    clientScope: null,
    groupsAttribute: 'groups',
  };
}
