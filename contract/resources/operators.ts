// Operators of a client (issue 11): the people who sign in to the console, as the operator groups' member picker
// and the operators list see them. An operator belongs to a client when created there, granted a role there, or a
// member of one of its groups (the view tenant_operators, migration 041). Usernames are global (one sign-in for
// every client); creating one, disabling, enabling and resetting a password are the server's
// (server/resources/accessAdmin.ts, under the operator-groups privileges 0.3.3.x), not the generic form.
// Issue 27: one account may work for several clients, so the list says which do (`shared`) and, per account, why the
// caller may not change its password or state (`accountLocked`, null: they may): a client's administrator changes
// only accounts of clients they administer alone; they may remove any account from their own client
// (`POST /:id/remove`: its roles, groups and sessions here).
import { API } from '../api';
import { PRIV } from '../privileges';
import { defineResource, email, switchField, text, timestamp } from './define';

export const operatorsResource = defineResource({
  name: 'operators',
  table: 'tenant_operators',
  api: API.operators,
  route: '/manage/operators',
  section: 'manage',
  label: { one: 'Operator', many: 'Operators' },
  icon: 'person',
  privileges: { view: PRIV.operatorGroups.view },
  scope: { tenant: true },
  routes: false,
  fields: {
    username: text({ max: 64, search: true, sort: true }),
    name: text({ max: 200, search: true, sort: true }),
    email: email(),
    disabled: switchField({ default: false }),
    createdAt: timestamp({ label: 'Created' }),
    // computed per request (server/auth/accountScope.ts), no column of the view
    shared: switchField({ label: 'Also in other clients', readOnly: true, virtual: true }),
    accountLocked: text({ label: 'Account changes', max: 300, readOnly: true, virtual: true, inList: false }),
  },
  list: { title: ['name'], columns: ['username', 'email', 'disabled', 'shared', 'createdAt'], sort: ['name', 'asc'] },
  form: [{ title: 'Operator', fields: ['username', 'name', 'email'] }],
});
