// Identities [0.3.1.x]: people who hold credentials, in a division; their credentials are owned rows.
import { API } from '../api';
import { PRIV } from '../privileges';
import { children, choice, date, defineResource, email, image, notBefore, number, ref, refs, text } from './define';

export const IDENTITY_STATUSES = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'suspended', label: 'Suspended' },
] as const;
export const CREDENTIAL_TYPES = [
  { value: 'card', label: 'Card' },
  { value: 'pin', label: 'PIN' },
  { value: 'qr', label: 'QR code' },
  { value: 'mobile', label: 'Mobile' },
] as const;
export const CREDENTIAL_STATUSES = [
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
  { value: 'lost', label: 'Lost' },
] as const;
const CODE = /^[A-Z0-9-]+$/;
const PHONE = /^[+0-9 ()-]*$/;

export const identitiesResource = defineResource({
  name: 'identities',
  table: 'identities',
  api: API.identities,
  route: '/manage/identities',
  section: 'manage',
  label: { one: 'Identity', many: 'Identities' },
  icon: 'people',
  privileges: PRIV.identities,
  scope: { tenant: true, division: 'divisionId' },
  timestamps: true,
  // a tenant's user-defined fields (./userFields.ts) ride along in `udf`
  extensible: true,
  fields: {
    firstName: text({ max: 100, required: true, search: true, sort: true }),
    lastName: text({ max: 100, required: true, search: true, sort: true }),
    employeeNo: text({
      label: 'Employee no.',
      max: 32,
      required: true,
      pattern: CODE,
      upper: true,
      help: 'Capitals, digits and dashes',
      unique: 'tenant',
      uniqueMessage: 'is already used by another identity',
      search: true,
      sort: true,
    }),
    idNumber: text({ label: 'ID number', max: 32 }),
    email: email({ search: true, sort: true }),
    phone: text({ max: 32, pattern: PHONE, phone: true }),
    // filled by "Read card" or "Take photo" (the card-reader panel shows it)
    photo: image({ maxBytes: 1_500_000, inList: false }),
    divisionId: ref('divisions', { label: 'Division', required: true, filter: true }),
    divisionName: text({ label: 'Division', max: 200, virtual: true, readOnly: true, from: 'divisionId', sort: true }),
    status: choice(IDENTITY_STATUSES, { required: true, default: 'active', filter: true, sort: true }),
    validFrom: date(),
    validTo: date({ sort: true }),
    credentials: children({
      table: 'credentials',
      parent: 'identity_id',
      itemLabel: 'Credential',
      max: 100,
      fields: {
        type: choice(CREDENTIAL_TYPES, { required: true }),
        number: text({ max: 64, required: true, pattern: CODE, upper: true, unique: 'tenant', uniqueMessage: 'is already issued to another identity' }),
        facilityCode: number({ min: 0 }),
        validFrom: date(),
        validTo: date(),
        status: choice(CREDENTIAL_STATUSES, { required: true, default: 'active' }),
      },
      rules: [notBefore('validTo', 'validFrom')],
    }),
    // issue 12: the access groups this identity is a member of (the group's members, seen from this side)
    accessGroupIds: refs('accessGroups', {
      label: 'Access groups',
      through: { table: 'access_group_members', from: 'identity_id', to: 'access_group_id' },
      maxItems: 500,
      onDelete: 'cascade',
      whenAbsent: 'keep',
    }),
  },
  rules: [notBefore('validTo', 'validFrom')],
  list: {
    title: ['lastName', 'firstName'],
    columns: ['employeeNo', 'divisionName', 'status', 'credentials', 'email', 'phone', 'validTo', 'updatedAt'],
    sort: ['lastName', 'asc'],
  },
  form: [
    { title: 'Person', fields: ['firstName', 'lastName', 'employeeNo', 'idNumber', 'email', 'phone', 'photo'] },
    { title: 'Access', fields: ['divisionId', 'status', 'validFrom', 'validTo'] },
    { title: 'Credentials', description: 'Cards, PINs and codes this identity presents at readers.', fields: ['credentials'] },
  ],
  export: ['csv', 'ndjson'],
  audit: { omit: ['photo'] },
});
