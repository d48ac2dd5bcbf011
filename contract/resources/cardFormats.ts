// Card formats [0.5.2.x] (issue 12): the bit layout a reader decodes a raw Wiegand value by — length, facility code
// and card number fields, parity bits. Overlapping or out-of-range fields are refused (server/resources/cardFormats.ts,
// formatViolations); the standard 26, 34 and 37-bit layouts are seeded per tenant.
import { PRIV } from '../privileges';
import { children, choice, defineResource, number, text } from './define';

export const PARITY_TYPES = [
  { value: 'even', label: 'Even' },
  { value: 'odd', label: 'Odd' },
] as const;

export const cardFormatsResource = defineResource({
  name: 'cardFormats',
  table: 'card_formats',
  api: '/event/manage/card-formats',
  route: '/hardware/card-format',
  section: 'hardware',
  label: { one: 'Card format', many: 'Card formats' },
  icon: 'credit-card',
  privileges: PRIV.cardFormats,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another card format' }),
    description: text({ max: 500, widget: 'textarea', search: true }),
    bits: number({ label: 'Length (bits)', required: true, min: 8, max: 128, sort: true, default: 26 }),
    facilityStart: number({ label: 'Facility code: first bit', min: 0, max: 127, default: 1 }),
    facilityLength: number({ label: 'Facility code: bits', min: 1, max: 48, default: 8 }),
    cardStart: number({ label: 'Card number: first bit', required: true, min: 0, max: 127, default: 9 }),
    cardLength: number({ label: 'Card number: bits', required: true, min: 1, max: 48, default: 16 }),
    parity: children({
      table: 'card_format_parity',
      parent: 'card_format_id',
      itemLabel: 'Parity bit',
      max: 8,
      fields: {
        bit: number({ label: 'Bit', required: true, min: 0, max: 127, default: 0 }),
        type: choice(PARITY_TYPES, { required: true, default: 'even' }),
        overStart: number({ label: 'Over: first bit', required: true, min: 0, max: 127, default: 1 }),
        overLength: number({ label: 'Over: bits', required: true, min: 1, max: 128, default: 12 }),
      },
    }),
  },
  list: { title: ['name'], columns: ['bits', 'facilityLength', 'cardLength', 'parity', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Layout',
      description: 'Bits are counted from 0 at the first bit received.',
      fields: ['name', 'description', 'bits', 'facilityStart', 'facilityLength', 'cardStart', 'cardLength'],
    },
    { title: 'Parity', fields: ['parity'] },
  ],
  export: ['csv', 'ndjson'],
});
