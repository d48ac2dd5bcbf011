// A client's own identity providers (issue 49, IAM mode): OpenID Connect or SAML 2.0, each offered on the sign-in page
// as "Sign in with <name>" for that client, its groups mapped to the client's roles. The client secret is write-only:
// kept encrypted at rest (server/auth/iam/sealed.ts), never answered, exported or audited. The installation's own
// provider, named in the environment (IAM_OIDC_*), stays beside these. Server: server/auth/iam/ (providers.ts).
import { PRIV } from '../privileges';
import { choice, defineResource, requiredWhen, switchField, text } from './define';

export const IDENTITY_PROVIDER_KINDS = [
  { value: 'oidc', label: 'OpenID Connect' },
  { value: 'saml', label: 'SAML 2.0' },
] as const;

/** `group=role-code` pairs, one per line or comma separated (the server also checks each role is one of the client's). */
export const ROLE_MAP_PATTERN = /^[,\n]*[^=,\n]+=[^=,\n]+([,\n]+[^=,\n]+=[^=,\n]+)*[,\n]*$/;

/** The claim (OIDC) or attribute (SAML) read for the person's groups when the provider names none. */
export const DEFAULT_GROUPS_ATTRIBUTE = 'groups';

const oidcOnly = { field: 'kind', values: ['oidc'] } as const;
const samlOnly = { field: 'kind', values: ['saml'] } as const;

export const identityProvidersResource = defineResource({
  name: 'identityProviders',
  table: 'identity_providers',
  api: '/event/manage/identity-providers',
  route: '/manage/identity-providers',
  section: 'manage',
  label: { one: 'Identity provider', many: 'Identity providers' },
  icon: 'id-number',
  privileges: {
    view: PRIV.identityProviders.view,
    add: PRIV.identityProviders.add,
    edit: PRIV.identityProviders.edit,
    delete: PRIV.identityProviders.delete,
  },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({
      max: 100,
      required: true,
      unique: 'tenant',
      uniqueMessage: 'is already the name of another identity provider',
      search: true,
      sort: true,
      help: 'The words on the sign-in button: “Sign in with <name>”',
    }),
    kind: choice(IDENTITY_PROVIDER_KINDS, { label: 'Protocol', required: true, default: 'oidc', filter: true, sort: true }),
    active: switchField({ label: 'Offered', default: true, sort: true, help: 'Shown on the sign-in page as “Sign in with <name>”' }),
    issuer: text({
      label: 'Issuer',
      max: 500,
      required: true,
      search: true,
      wide: true,
      pattern: /^(https?:\/\/[^\s/?#]+[^\s#]*|urn:\S+)$/,
      help: 'OpenID Connect: the issuer URL (its /.well-known/openid-configuration is read). SAML: the identity provider’s entity ID.',
      placeholder: 'https://login.example.com/tenant/v2.0',
    }),
    oidcClientId: text({ label: 'Client ID', max: 200, shownWhen: oidcOnly, help: 'Gatehouse’s registration at the provider' }),
    clientSecret: text({
      label: 'Client secret',
      max: 500,
      writeOnly: true,
      shownWhen: oidcOnly,
      help: 'Kept encrypted and never shown again; leave empty to keep the stored one (a public client has none)',
    }),
    ssoUrl: text({
      label: 'Single sign-on URL',
      max: 2000,
      wide: true,
      shownWhen: samlOnly,
      pattern: /^https?:\/\/[^\s/?#]+[^\s]*$/,
      help: 'The identity provider’s HTTP-Redirect sign-on address',
    }),
    certificate: text({
      label: 'Signing certificate (PEM)',
      max: 20_000,
      widget: 'textarea',
      wide: true,
      inList: false,
      shownWhen: samlOnly,
      help: 'The identity provider’s signing certificate: assertions signed by any other key are refused',
    }),
    sloUrl: text({
      label: 'Single logout URL',
      max: 2000,
      wide: true,
      shownWhen: samlOnly,
      pattern: /^https?:\/\/[^\s/?#]+[^\s]*$/,
      help: 'The identity provider’s HTTP-Redirect single logout address; empty: signing out ends the Gatehouse session only',
    }),
    signRequests: switchField({
      label: 'Sign requests',
      default: false,
      shownWhen: samlOnly,
      help: 'Gatehouse signs its AuthnRequests and logout messages with its key (published in its metadata)',
    }),
    encryptAssertions: switchField({
      label: 'Require encrypted assertions',
      default: false,
      shownWhen: samlOnly,
      help: 'An assertion the provider did not encrypt for Gatehouse’s key (published in its metadata) is refused',
    }),
    groupsAttribute: text({
      label: 'Groups claim',
      max: 200,
      help: 'The claim (OpenID Connect) or attribute (SAML) that lists the person’s groups; empty: groups',
      placeholder: 'groups',
    }),
    roleMap: text({
      label: 'Group → role map',
      max: 4000,
      required: true,
      widget: 'textarea',
      wide: true,
      pattern: ROLE_MAP_PATTERN,
      placeholder: 'gatehouse-operators=administrator',
      help: 'group=role-code pairs, one per line or comma separated, e.g. gatehouse-operators=security-operator',
    }),
  },
  rules: [
    requiredWhen('oidcClientId', 'kind', ['oidc'], 'is required for OpenID Connect'),
    requiredWhen('ssoUrl', 'kind', ['saml'], 'is required for SAML'),
    requiredWhen('certificate', 'kind', ['saml'], 'is required for SAML'),
  ],
  list: { title: ['name'], columns: ['kind', 'issuer', 'active', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Identity provider',
      fields: ['name', 'kind', 'active', 'issuer', 'oidcClientId', 'clientSecret', 'ssoUrl', 'certificate', 'sloUrl', 'signRequests', 'encryptAssertions'],
    },
    {
      title: 'Groups and roles',
      description: 'Which of this client’s roles each of the provider’s groups gives; a person in none of them is not let in.',
      fields: ['groupsAttribute', 'roleMap'],
    },
  ],
  audit: { omit: ['clientSecret'] },
});
