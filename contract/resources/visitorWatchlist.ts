// The visitor watchlist (issue 50): people a client does not let in (deny) or keeps an eye on (watch), each with the
// reason, who added them and until when. Every registration at the front desk and every visit request is held against
// it (contract/watchlist.ts: the same name, a similar name, the same document number; server/resources/watchlist.ts):
// a match is kept on the registration or request, shown to the receptionist with the entry's reason, raises an alarm
// for security (event 7100) and waits for the front desk's decision (let in, or refuse). Kept per client.
import { PRIV } from '../privileges';
import { WATCHLIST_KINDS } from '../watchlist';
import { choice, date, defineResource, image, text } from './define';

export const visitorWatchlistResource = defineResource({
  name: 'visitorWatchlist',
  table: 'visitor_watchlist',
  api: '/visitor/1.0/watchlist',
  route: '/visitor/watchlist',
  section: 'visitor',
  label: { one: 'Watchlist entry', many: 'Visitor watchlist' },
  icon: 'eye-open',
  privileges: PRIV.visitorWatchlist,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    fullName: text({ label: 'Name', max: 200, required: true, search: true, sort: true, placeholder: 'As on their identity card' }),
    kind: choice(WATCHLIST_KINDS, { label: 'List', required: true, default: 'deny', filter: true, sort: true }),
    dateOfBirth: date({ label: 'Date of birth' }),
    documentNumber: text({ label: 'Document number', max: 32, search: true, help: 'Their ID card or passport number; spaces and dashes are ignored' }),
    photo: image({ maxBytes: 1_500_000, inList: false, widget: 'upload' }),
    reason: text({
      max: 500,
      required: true,
      widget: 'textarea',
      wide: true,
      search: true,
      placeholder: 'Threatened staff on 3 Nov; banned by the site manager',
    }),
    until: date({ label: 'Until', sort: true, help: 'The last day the entry counts; empty: until removed' }),
    addedBy: text({ label: 'Added by', max: 200, readOnly: true, virtual: true }),
  },
  list: { title: ['fullName'], columns: ['kind', 'dateOfBirth', 'documentNumber', 'reason', 'until', 'addedBy'], sort: ['fullName', 'asc'] },
  form: [
    {
      title: 'Who',
      description: 'Registrations and visit requests with this name, a similar one or this document number warn the front desk.',
      fields: ['fullName', 'kind', 'dateOfBirth', 'documentNumber', 'photo'],
    },
    { title: 'Why', fields: ['reason', 'until'] },
  ],
  export: ['csv', 'ndjson'],
  audit: { omit: ['photo'] },
});
