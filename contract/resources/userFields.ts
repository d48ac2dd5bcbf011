// User-defined fields [0.3.4.0 view, 0.3.4.1 add, 0.3.4.2 edit]: a tenant's own typed fields on identities. Their
// values travel in the identity's `udf` object (a resource declared `extensible`), validated by the same rule on
// the form and the server (checkUserFieldValues in ./derive.ts), named `udf.<key>` in violations.
import { API } from '../api';
import { PRIV } from '../privileges';
import { choice, defineResource, number, switchField, text } from './define';

export const USER_FIELD_KINDS = [
  { value: 'text', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'date', label: 'Date' },
  { value: 'choice', label: 'Choice' },
] as const;

export const userFieldsResource = defineResource({
  name: 'userFields',
  table: 'user_fields',
  api: API.userFields,
  route: '/manage/user-defined-fields',
  section: 'manage',
  label: { one: 'User-defined field', many: 'User-defined fields' },
  icon: 'th-list',
  privileges: { view: '0.3.4.0', add: '0.3.4.1', edit: '0.3.4.2', list: [PRIV.identities.view] }, // identity forms and lists are built from them
  scope: { tenant: true },
  timestamps: true,
  fields: {
    key: text({
      max: 40,
      required: true,
      pattern: /^[A-Za-z][A-Za-z0-9_-]*$/,
      help: 'Letters, digits, dash or underscore; starts with a letter',
      unique: 'tenant',
      uniqueMessage: 'is already used by another user-defined field',
      search: true,
      sort: true,
    }),
    label: text({ max: 100, required: true, search: true, sort: true }),
    kind: choice(USER_FIELD_KINDS, { label: 'Type', required: true, default: 'text', filter: true, sort: true }),
    required: switchField({ default: false, sort: true }),
    maxLength: number({ label: 'Max length (text)', min: 1, max: 2000 }),
    options: text({ label: 'Choices (one per line)', max: 4000, widget: 'textarea', wide: true }),
    position: number({ min: 0, max: 10_000, sort: true }),
  },
  list: { title: ['label'], columns: ['key', 'kind', 'required', 'maxLength', 'position', 'updatedAt'], sort: ['position', 'asc'] },
  form: [
    {
      title: 'User-defined field',
      description: 'Shown on every identity of this client, in its own section.',
      fields: ['label', 'key', 'kind', 'required', 'maxLength', 'options', 'position'],
    },
  ],
  export: ['csv', 'ndjson'],
});
