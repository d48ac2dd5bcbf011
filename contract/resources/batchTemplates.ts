// Identity batch templates [0.3.1.6 view, 0.3.1.7 add, 0.3.1.8 edit]: which spreadsheet column (by its header)
// fills which identity field, user-defined field (`udf` + its key) or the card number; the rows go to the
// template's division. The upload itself is server/batch (POST …/batch-upload/preview and …/import) [0.3.1.9].
import { API } from '../api';
import { CREDENTIAL_TYPES } from './identities';
import { children, choice, defineResource, ref, text } from './define';

export const BATCH_TARGETS = [
  { value: 'employeeNo', label: 'Employee no.' },
  { value: 'firstName', label: 'First name' },
  { value: 'lastName', label: 'Last name' },
  { value: 'idNumber', label: 'ID number' },
  { value: 'email', label: 'Email' },
  { value: 'phone', label: 'Phone' },
  { value: 'status', label: 'Status' },
  { value: 'validFrom', label: 'Valid from' },
  { value: 'validTo', label: 'Valid to' },
  { value: 'credentialNumber', label: 'Card number' },
  { value: 'udf', label: 'User-defined field' },
] as const;

export const batchTemplatesResource = defineResource({
  name: 'batchTemplates',
  table: 'batch_templates',
  api: API.batchTemplates,
  route: '/manage/identity-batch-template',
  section: 'manage',
  label: { one: 'Batch template', many: 'Batch templates' },
  icon: 'th',
  privileges: { view: '0.3.1.6', add: '0.3.1.7', edit: '0.3.1.8' },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, unique: 'tenant', uniqueMessage: 'is already used by another template', search: true, sort: true }),
    divisionId: ref('divisions', { label: 'Division', required: true }),
    divisionName: text({ label: 'Division', max: 200, virtual: true, readOnly: true, from: 'divisionId', sort: true }),
    credentialType: choice(CREDENTIAL_TYPES, { label: 'Credential type', required: true, default: 'card' }),
    columns: children({
      table: 'batch_template_columns',
      parent: 'template_id',
      itemLabel: 'Column',
      max: 60,
      fields: {
        header: text({ label: 'Column header', max: 100, required: true }),
        target: choice(BATCH_TARGETS, { label: 'Fills', required: true }),
        udfKey: text({ label: 'User-defined field key', max: 40 }),
      },
    }),
  },
  list: { title: ['name'], columns: ['divisionName', 'credentialType', 'columns', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    { title: 'Template', fields: ['name', 'divisionId', 'credentialType'] },
    {
      title: 'Columns',
      description:
        'Each spreadsheet column by its header, and the identity field it fills. Employee no. is required: re-uploading a file updates the identities it matches.',
      fields: ['columns'],
    },
  ],
});
