// A made-up plain resource (two tests ask what a declaration alone derives: its console routes, src/app/routeTable.test.ts,
// and its privilege entries, contract/privilegeCatalogue.test.ts). Codes 0.4.99.x are in no list of the product.
import { defineResource, text } from '../contract';

export const BINS = defineResource({
  name: 'bins',
  table: 'bins',
  api: '/event/manage/bins',
  route: '/configure/bins',
  section: 'configure',
  label: { one: 'Bin', many: 'Bins' },
  description: 'Where lost property waits for its owner.',
  icon: 'box',
  privileges: { view: '0.4.99.0', add: '0.4.99.1', edit: '0.4.99.2', delete: '0.4.99.3' },
  scope: { tenant: true },
  fields: { name: text({ required: true, max: 100 }) },
  list: { title: ['name'], columns: [], sort: ['name', 'asc'] },
  form: [{ title: 'Bin', fields: ['name'] }],
});
