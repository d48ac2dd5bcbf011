// The resource catalogue: every declared resource, by name. Adding a resource is adding its declaration here
// (and its migration); the server, console and generated tests pick it up.
import { clientsResource } from './clients';
import type { ResourceDeclaration } from './define';
import { divisionsResource } from './divisions';
import { identitiesResource } from './identities';
import { visitorsResource } from './visitors';
import { serviceAccountsResource } from './serviceAccounts';
import { webHooksResource } from './webHooks';
import { userFieldsResource } from './userFields';
import { batchTemplatesResource } from './batchTemplates';
import { licensesResource } from './licenses';

export * from './define';
export * from './derive';
export {
  clientsResource, divisionsResource, identitiesResource, visitorsResource, serviceAccountsResource, webHooksResource,
  userFieldsResource, batchTemplatesResource, licensesResource,
};
export * from './serviceAccounts';
export * from './webHooks';
export { USER_FIELD_KINDS } from './userFields';
export { BATCH_TARGETS } from './batchTemplates';
export { SEATS, type Seat } from './licenses';
export { IDENTITY_STATUSES, CREDENTIAL_TYPES, CREDENTIAL_STATUSES } from './identities';
export { VISIT_PURPOSES, VISITOR_STATUSES } from './visitors';

export const CATALOGUE: readonly ResourceDeclaration<any>[] = [
  clientsResource, divisionsResource, identitiesResource, visitorsResource, serviceAccountsResource, webHooksResource,
  userFieldsResource, batchTemplatesResource, licensesResource,
];
export const resourceByName = (name: string) => CATALOGUE.find((r) => r.name === name);
