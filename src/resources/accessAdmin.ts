// Roles and operator groups in the console (issue 11): the declarations (contract/resources/roles.ts,
// operatorGroups.ts) plus the console-only touches.
import { operatorGroupsResource, rolesResource } from '../../contract';
import { fromDeclaration } from './defineResource';

export const roles = fromDeclaration<any>(rolesResource, {
  primary: { title: 'Role', width: 260 },
  columns: { code: { width: 200 }, privilegeCount: { width: 110 }, updatedAt: { width: 190 } },
  filterPlaceholder: 'Search roles…',
});
export const operatorGroups = fromDeclaration<any>(operatorGroupsResource, {
  primary: { title: 'Group', width: 260 },
  columns: { description: { width: 320 }, updatedAt: { width: 190 } },
  filterPlaceholder: 'Search operator groups…',
});
