export { consoleResource, type Resource, type ResourceDef, type FieldDef, type RepeatDef } from './consoleResource';
export { ResourceList } from './ResourceList';
export { ResourceForm } from './ResourceForm';
export { identities } from './identities';
export { clients } from './clients';
export { operatorGroups, operators, roles, type Operator } from './accessAdmin';
export { activityReport, eventHistory, uiErrors } from './reports';
export { userFields, batchTemplates, licenses } from './identityData';
