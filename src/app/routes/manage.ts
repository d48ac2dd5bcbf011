// The Manage section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// clients, identities, operators, roles and privileges, service accounts and web hooks.
import { PRIV } from '../../../contract';
import { r, fromResource, type RouteDef } from './define';
import { RESOURCE_INDEX } from '../../../contract/resources/catalogueIndex';

export const MANAGE_ROUTES: RouteDef[] = [
  fromResource(RESOURCE_INDEX.clients, 'list', 'clients'),
  fromResource(RESOURCE_INDEX.clients, 'add', 'clientAdd'),
  fromResource(RESOURCE_INDEX.clients, 'edit', 'clientEdit'),
  fromResource(RESOURCE_INDEX.identities, 'list', 'identities'),
  fromResource(RESOURCE_INDEX.identities, 'add', 'identityAdd'),
  fromResource(RESOURCE_INDEX.identities, 'edit', 'identityEdit'),
  r('manage', '/manage/identities/batch-upload', 'Batch upload', ['0.3.1.9'], {
    icon: 'upload',
    hidden: true,
    screen: 'batchUpload',
    description: 'Upload a spreadsheet of identities through a batch template.',
  }),
  fromResource(RESOURCE_INDEX.batchTemplates, 'list', 'catalogueList', { description: 'Column mappings for uploading identities in bulk.' }),
  fromResource(RESOURCE_INDEX.batchTemplates, 'add', 'catalogueForm', { description: 'Create a new batch template.' }),
  fromResource(RESOURCE_INDEX.batchTemplates, 'edit', 'catalogueForm', { description: 'Change an existing batch template.' }),
  fromResource(RESOURCE_INDEX.licenses, 'list', 'catalogueList', { description: 'Licensed modules, seats and their expiry.' }),
  fromResource(RESOURCE_INDEX.licenses, 'edit', 'catalogueForm', { description: 'Apply a new license key.' }),
  fromResource(RESOURCE_INDEX.operatorGroups, 'list', 'catalogueList', { description: 'Groups of operators sharing roles and divisions.' }),
  fromResource(RESOURCE_INDEX.operatorGroups, 'add', 'catalogueForm'),
  fromResource(RESOURCE_INDEX.operatorGroups, 'edit', 'catalogueForm'),
  r('manage', '/manage/operators', 'Operators', [PRIV.operatorGroups.view], {
    icon: 'person',
    screen: 'operators',
    description: 'The people who sign in to this client: reset a password, disable, or remove an account that also works elsewhere.',
  }),
  r('manage', '/manage/operator-settings', 'Operator settings', ['0.3.7.0'], {
    icon: 'settings',
    screen: 'operatorSettings',
    description: 'Password policy, lockout and session settings for operators.',
  }),
  // privileges are the product's (read-only catalogue); add and edit say so and lead to the roles that grant them
  r('manage', '/manage/privileges', 'Privileges', ['0.3.5.0'], {
    icon: 'lock',
    screen: 'privileges',
    description: 'The privilege catalogue and what each code allows.',
  }),
  r('manage', '/manage/privileges/add', 'Add Privilege', ['0.3.5.1'], {
    icon: 'lock',
    hidden: true,
    screen: 'privilegesFixed',
    description: 'Privileges come with Gatehouse: they are granted through roles.',
  }),
  r('manage', '/manage/privileges/edit/:id', 'Edit Privilege', ['0.3.5.2'], {
    icon: 'lock',
    hidden: true,
    screen: 'privilegesFixed',
    description: 'Privileges come with Gatehouse: they are granted through roles.',
  }),
  fromResource(RESOURCE_INDEX.roles, 'list', 'catalogueList', { description: 'Roles bundle privileges per division.' }),
  fromResource(RESOURCE_INDEX.roles, 'add', 'catalogueForm'),
  fromResource(RESOURCE_INDEX.roles, 'edit', 'catalogueForm'),
  r('manage', '/manage/roles/assign-privileges/:id', 'Assign privileges', ['0.3.6.4'], {
    icon: 'shield',
    hidden: true,
    screen: 'assignPrivileges',
    description: 'Tick the privileges a role holds in each division.',
  }),
  // issue 49: a client's identity providers (OpenID Connect, SAML 2.0), offered on its sign-in page
  fromResource(RESOURCE_INDEX.identityProviders, 'list', 'catalogueList', {
    description: 'The company’s identity providers its operators sign in with, and which roles their groups give.',
  }),
  fromResource(RESOURCE_INDEX.identityProviders, 'add', 'catalogueForm', { description: 'Connect an identity provider.' }),
  fromResource(RESOURCE_INDEX.identityProviders, 'edit', 'catalogueForm', { description: 'Change an identity provider.' }),
  fromResource(RESOURCE_INDEX.serviceAccounts, 'list', 'serviceAccounts'),
  fromResource(RESOURCE_INDEX.serviceAccounts, 'add', 'serviceAccountForm'),
  fromResource(RESOURCE_INDEX.serviceAccounts, 'edit', 'serviceAccountForm'),
  fromResource(RESOURCE_INDEX.userFields, 'list', 'catalogueList', { description: 'Extra fields on identities, defined per client.' }),
  fromResource(RESOURCE_INDEX.userFields, 'add', 'catalogueForm', { description: 'Create a new user-defined field.' }),
  fromResource(RESOURCE_INDEX.userFields, 'edit', 'catalogueForm', { description: 'Change an existing user-defined field.' }),
  fromResource(RESOURCE_INDEX.webHooks, 'list', 'webHooks'),
  fromResource(RESOURCE_INDEX.webHooks, 'add', 'webHookForm'),
  fromResource(RESOURCE_INDEX.webHooks, 'edit', 'webHookForm'),
  r('manage', '/manage/web-hooks/histories/:id', 'Web hook histories', ['0.3.4.7'], {
    icon: 'history',
    hidden: true,
    screen: 'webHookHistory',
    description: 'Every delivery of a web hook with status and response.',
  }),
];
