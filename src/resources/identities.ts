// Identities in the console: the declaration (contract/resources/identities.ts) plus the console-only touches.
import { identitiesResource, type Identity } from '../../contract';
import { fromDeclaration } from './consoleResource';

export const identities = fromDeclaration<Identity>(identitiesResource, {
  primary: { title: 'Name', value: (r) => `${r.lastName}, ${r.firstName}`, width: 260 },
  columns: {
    employeeNo: { width: 130 },
    divisionName: { width: 160, value: (r) => r.divisionName ?? String(r.divisionId) },
    status: { width: 100 },
    credentials: { width: 110 },
    email: { width: 220 },
    phone: { width: 140 },
    validTo: { width: 110 },
    updatedAt: { width: 190 },
  },
  filterPlaceholder: 'Search name, employee no., email…',
  devices: { purpose: 'identity' },
});
