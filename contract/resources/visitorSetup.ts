// The visitor section's set-up lists (§2 Visitor): the building's tenants whom visitors come to see [1.1.x], the
// cards and QR codes lent to visitors [1.2.x], and the kinds of visit [1.3.x]. The spec names no fields; these are
// what a front desk keeps about each. None has a delete code: a row no longer used is switched off ("In use"), so
// the visits that named it keep their history.
import { enums, integer, object, string, type, type Infer } from '../structs';
import { API } from '../api';
import { PRIV } from '../privileges';
import { int32, safeText } from '../primitives';
import { fill, type Sentence } from '../messages';
import { choice, defineResource, email, number, switchField, text } from './define';

/** A card's number as printed on it (visitor credentials, the credential store). */
const PRINTED_NUMBER = {
  label: 'Number',
  max: 20,
  required: true,
  upper: true,
  pattern: /^[A-Z0-9-]{1,20}$/,
  help: 'As printed on it: capital letters, digits and -',
  search: true,
  sort: true,
} as const;

/** A phone number as people type it: digits, spaces, +, -, ( and ). */
export const PHONE = /^\+?[0-9 ()-]{3,40}$/;

export const visitorTenantsResource = defineResource({
  name: 'visitorTenants',
  table: 'visitor_tenants',
  api: '/visitor/1.0/tenants',
  route: '/visitor/tenants',
  section: 'visitor',
  label: { one: 'Visitor tenant', many: 'Visitor tenants' },
  icon: 'office',
  privileges: PRIV.visitorTenants,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({
      max: 100,
      required: true,
      search: true,
      sort: true,
      unique: 'tenant',
      uniqueMessage: 'is already the name of another tenant',
      placeholder: 'Acme Legal',
    }),
    location: text({ label: 'Floor or unit', max: 100, search: true, sort: true, placeholder: 'Level 3, suite 301' }),
    contactName: text({ label: 'Contact', max: 100, search: true, placeholder: 'Front office' }),
    contactEmail: email({ label: 'Contact email', max: 200 }),
    phone: text({ max: 40, pattern: PHONE, help: 'Digits, spaces and + - ( )', phone: true }),
    active: switchField({
      label: 'In use',
      default: true,
      sort: true,
      help: 'A tenant no longer in the building is switched off: its past visits keep its name.',
    }),
    note: text({ max: 500, widget: 'textarea', wide: true, search: true }),
  },
  list: { title: ['name'], columns: ['location', 'contactName', 'contactEmail', 'phone', 'active', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Visitor tenant',
      description: 'A company or department in the building that receives visitors.',
      fields: ['name', 'location', 'contactName', 'contactEmail', 'phone', 'active', 'note'],
    },
  ],
  export: ['csv', 'ndjson'],
});

export const VISITOR_CREDENTIAL_KINDS = [
  { value: 'card', label: 'Card' },
  { value: 'qr', label: 'QR code' },
] as const;
export const VISITOR_CREDENTIAL_STATES = [
  { value: 'available', label: 'Available' },
  { value: 'issued', label: 'Issued' },
  { value: 'lost', label: 'Lost' },
  { value: 'retired', label: 'Retired' },
] as const;

export const visitorCredentialsResource = defineResource({
  name: 'visitorCredentials',
  table: 'visitor_credentials',
  api: '/visitor/1.0/credentials',
  route: '/visitor/credentials',
  section: 'visitor',
  label: { one: 'Visitor credential', many: 'Visitor credentials' },
  icon: 'credit-card',
  privileges: PRIV.visitorCredentials,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    number: text({ ...PRINTED_NUMBER, unique: 'tenant', uniqueMessage: 'is already the number of another visitor credential', placeholder: 'V-0001' }),
    kind: choice(VISITOR_CREDENTIAL_KINDS, { required: true, default: 'card', sort: true, filter: true }),
    state: choice(VISITOR_CREDENTIAL_STATES, {
      required: true,
      default: 'available',
      sort: true,
      filter: true,
      help: 'Only an available credential is handed to a visitor.',
    }),
    note: text({ max: 500, widget: 'textarea', wide: true, search: true, placeholder: 'Scratched, reads on the second try' }),
  },
  list: { title: ['number'], columns: ['kind', 'state', 'note', 'updatedAt'], sort: ['number', 'asc'] },
  screens: { toolbarLinks: [{ label: 'Batch add', route: '/visitor/credentials/batch-add', privilege: PRIV.visitorCredentials.batchAdd, icon: 'add' }] },
  form: [
    { title: 'Visitor credential', description: 'A card or QR code kept at the front desk and lent to visitors.', fields: ['number', 'kind', 'state', 'note'] },
  ],
  export: ['csv', 'ndjson'],
});

/** Batch add [1.2.4]: a box of new cards numbered in a row, `prefix` then `first`… zero-padded to `digits`. */
export const VISITOR_CREDENTIAL_BATCH_API = API.visitorCredentialBatch;
export const VISITOR_CREDENTIAL_BATCH_MAX = 500;
export const VisitorCredentialBatch = object({
  prefix: safeText(10, {
    pattern: /^[A-Z0-9-]*$/,
    patternMessage: fill('visitorCredential.prefixForm', 'is not in the expected form: capital letters, digits and -', {}),
  }),
  first: int32(0, 999_999_999),
  count: int32(1, VISITOR_CREDENTIAL_BATCH_MAX),
  digits: int32(1, 10),
  kind: enums(VISITOR_CREDENTIAL_KINDS.map((k) => k.value)),
});
export type VisitorCredentialBatch = Infer<typeof VisitorCredentialBatch>;
export const VisitorCredentialBatchResult = type({ added: integer(), firstNumber: string(), lastNumber: string() });
export type VisitorCredentialBatchResult = Infer<typeof VisitorCredentialBatchResult>;

/** The numbers of a batch, or the field and reason it cannot be made (they would need more digits); a prefix of at
 *  most 10 and at most 10 digits keep every number within the 20 characters a visitor credential's number has. */
/** A batch that would need more digits, said with its key (issue 48). */
const wouldRunPast = (digits: number) =>
  fill('visitorCredential.wouldRunPast', 'would run past {last}: use more digits or fewer credentials', { last: '9'.repeat(digits) });
export function batchNumbers(b: VisitorCredentialBatch): { numbers: string[] } | ({ field: keyof VisitorCredentialBatch } & Sentence) {
  const last = b.first + b.count - 1;
  if (String(last).length > b.digits) return { field: 'count', ...wouldRunPast(b.digits) };
  return { numbers: Array.from({ length: b.count }, (_, i) => `${b.prefix}${String(b.first + i).padStart(b.digits, '0')}`) };
}

export const visitTypesResource = defineResource({
  name: 'visitTypes',
  table: 'visit_types',
  api: '/visitor/1.0/visit-types',
  route: '/visitor/visit-types',
  section: 'visitor',
  label: { one: 'Visit type', many: 'Visit types' },
  icon: 'tag',
  privileges: PRIV.visitTypes,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({
      max: 100,
      required: true,
      search: true,
      sort: true,
      unique: 'tenant',
      uniqueMessage: 'is already the name of another visit type',
      placeholder: 'Interview',
    }),
    description: text({ max: 500, widget: 'textarea', wide: true, search: true }),
    defaultMinutes: number({
      label: 'Usual length (minutes)',
      min: 5,
      max: 1440,
      required: true,
      default: 60,
      sort: true,
      help: 'From 5 minutes to a day (1440)',
    }),
    needsApproval: switchField({ label: 'Needs the host\u2019s approval', default: false }),
    needsEscort: switchField({ label: 'Escorted on site', default: false }),
    active: switchField({ label: 'In use', default: true, sort: true }),
  },
  list: { title: ['name'], columns: ['defaultMinutes', 'needsApproval', 'needsEscort', 'active', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Visit type',
      description: 'A kind of visit, with how long it usually lasts and what it needs.',
      fields: ['name', 'description', 'defaultMinutes', 'needsApproval', 'needsEscort', 'active'],
    },
  ],
  export: ['csv', 'ndjson'],
});

export const STOCK_CREDENTIAL_TYPES = [
  { value: 'card', label: 'Card' },
  { value: 'fob', label: 'Key fob' },
  { value: 'sticker', label: 'Sticker tag' },
] as const;

/**
 * The credential store [0.6.6.3 view, .4 add, .5 edit]: cards and fobs bought and held in stock until they are
 * given to an identity (Manage → Identities, their credentials). No delete code: a spoilt one is marked so.
 */
export const credentialStoreResource = defineResource({
  name: 'credentialStore',
  table: 'credential_stock',
  api: '/report/1.0/credential-store',
  route: '/report/credential-store',
  section: 'report',
  label: { one: 'Credential store entry', many: 'Credential store' },
  description: 'Unassigned credentials held in stock.',
  icon: 'database',
  privileges: PRIV.credentialStore,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    number: text({ ...PRINTED_NUMBER, unique: 'tenant', uniqueMessage: 'is already in the store', placeholder: 'C-100200' }),
    type: choice(STOCK_CREDENTIAL_TYPES, { required: true, default: 'card', sort: true, filter: true }),
    facilityCode: number({ label: 'Facility code', min: 0, max: 65535, sort: true }),
    batch: text({ label: 'Delivery', max: 100, search: true, sort: true, placeholder: 'Order 2026-114' }),
    spoilt: switchField({ label: 'Spoilt', default: false, help: 'Damaged or misprinted: kept on record, never given out' }),
    note: text({ max: 500, widget: 'textarea', wide: true, search: true }),
  },
  list: { title: ['number'], columns: ['type', 'facilityCode', 'batch', 'spoilt', 'updatedAt'], sort: ['number', 'asc'] },
  form: [
    {
      title: 'Credential store entry',
      description: 'A card or fob held in stock until it is given to someone.',
      fields: ['number', 'type', 'facilityCode', 'batch', 'spoilt', 'note'],
    },
  ],
  export: ['csv', 'ndjson'],
});
