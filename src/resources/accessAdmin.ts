// Roles and operator groups in the console (issue 11): the declarations (contract/resources/roles.ts,
// operatorGroups.ts) plus the console-only touches.
import type { Infer } from 'superstruct';
import { operatorGroupsResource, operatorsResource, rolesResource, rowSchema } from '../../contract';
import { fromDeclaration } from './consoleResource';

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the schema is built to name its row type
const OperatorRow = rowSchema(operatorsResource);
export type Operator = Infer<typeof OperatorRow>;
/** The client's operators (issue 27: which also work for other clients, and why an account may not be changed here). */
export const operators = fromDeclaration<Operator>(operatorsResource, {
  primary: { title: 'Operator', width: 240 },
  columns: { username: { width: 180 }, email: { width: 240 }, disabled: { width: 100 }, shared: { width: 170 }, createdAt: { width: 190 } },
  filterPlaceholder: 'Search operators…',
});

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
