import { API, Identity, IdentityInput, PRIV } from '../../contract';
import { defineResource } from './defineResource';
import { showDate, showDateTime } from '../ui/time';

const statusOptions = [{ label: 'Active', value: 'active' }, { label: 'Inactive', value: 'inactive' }, { label: 'Suspended', value: 'suspended' }];
const credentialTypes = [{ label: 'Card', value: 'card' }, { label: 'PIN', value: 'pin' }, { label: 'QR code', value: 'qr' }, { label: 'Mobile', value: 'mobile' }];
const credentialStatus = [{ label: 'Active', value: 'active' }, { label: 'Suspended', value: 'suspended' }, { label: 'Lost', value: 'lost' }];

export const identities = defineResource<Identity>({
  name: 'identities',
  title: 'Identities',
  singular: 'Identity',
  path: '/manage/identities',
  privileges: PRIV.identities,
  schema: Identity,
  input: IdentityInput,
  api: API.identities,
  bulkDelete: API.identitiesBulkDelete,
  primary: { title: 'Name', field: 'lastName', value: (r) => `${r.lastName}, ${r.firstName}`, width: 260 },
  columns: [
    { field: 'employeeNo', title: 'Employee no.', width: 130, sortable: true },
    { field: 'divisionName', title: 'Division', width: 160, sortable: false, value: (r) => r.divisionName ?? String(r.divisionId) },
    { field: 'status', title: 'Status', width: 100, sortable: true },
    { field: 'credentials', title: 'Credentials', width: 110, sortable: false, value: (r) => String(r.credentials.length) },
    { field: 'email', title: 'Email', width: 220, sortable: true, value: (r) => r.email ?? '' },
    { field: 'phone', title: 'Phone', width: 140, sortable: false, value: (r) => r.phone ?? '' },
    { field: 'validTo', title: 'Valid to', width: 110, sortable: true, value: (r) => (r.validTo ? showDate(r.validTo) : '') },
    { field: 'updatedAt', title: 'Updated', width: 190, sortable: true, value: (r) => showDateTime(r.updatedAt), zoned: true },
  ],
  defaultSort: [{ field: 'lastName', dir: 'asc' }],
  filterPlaceholder: 'Search name, employee no., email…',
  devices: { purpose: 'identity' },
  form: [
    {
      title: 'Person',
      fields: [
        { name: 'firstName', label: 'First name', required: true },
        { name: 'lastName', label: 'Last name', required: true },
        { name: 'employeeNo', label: 'Employee no.', required: true, upper: true, help: 'Capitals, digits and dashes' },
        { name: 'idNumber', label: 'ID number' },
        { name: 'email', label: 'Email', kind: 'email' },
        { name: 'phone', label: 'Phone', placeholder: '+1 555 0100' },
        // filled by "Read card" or "Take photo" (ReadCardPanel shows it): a data URL
        { name: 'photo', label: 'Photo', kind: 'hidden' },
      ],
    },
    {
      title: 'Access',
      fields: [
        { name: 'divisionId', label: 'Division', kind: 'select', source: 'divisions', required: true },
        { name: 'status', label: 'Status', kind: 'select', options: statusOptions, required: true },
        { name: 'validFrom', label: 'Valid from', kind: 'date' },
        { name: 'validTo', label: 'Valid to', kind: 'date' },
      ],
    },
    {
      title: 'Credentials',
      description: 'Cards, PINs and codes this identity presents at readers.',
      fields: [
        {
          repeat: 'credentials',
          label: 'Credentials',
          itemLabel: 'Credential',
          empty: () => ({ type: 'card', number: '', status: 'active' }),
          fields: [
            { name: 'id', label: 'Id', kind: 'hidden' },
            { name: 'type', label: 'Type', kind: 'select', options: credentialTypes, required: true },
            { name: 'number', label: 'Number', required: true, upper: true },
            { name: 'facilityCode', label: 'Facility code', kind: 'number' },
            { name: 'validFrom', label: 'Valid from', kind: 'date' },
            { name: 'validTo', label: 'Valid to', kind: 'date' },
            { name: 'status', label: 'Status', kind: 'select', options: credentialStatus, required: true },
          ],
        },
      ],
    },
  ],
  toForm: (r) => ({
    firstName: r.firstName, lastName: r.lastName, employeeNo: r.employeeNo, idNumber: r.idNumber ?? '', email: r.email ?? '', phone: r.phone ?? '', photo: r.photo ?? '',
    divisionId: String(r.divisionId), status: r.status, validFrom: r.validFrom ?? '', validTo: r.validTo ?? '',
    credentials: r.credentials.map((c) => ({ id: c.id, type: c.type, number: c.number, facilityCode: c.facilityCode ?? '', validFrom: c.validFrom ?? '', validTo: c.validTo ?? '', status: c.status })),
  }),
});
