// The identity-data resources of the Manage section in the console (issue 11): user-defined fields, identity
// batch templates and licenses — their declarations (contract/resources) plus the console-only touches.
import { batchTemplatesResource, licensesResource, userFieldsResource, type Row } from '../../contract';
import { fromDeclaration } from './consoleResource';

export type UserField = Row<typeof userFieldsResource>;
export type BatchTemplate = Row<typeof batchTemplatesResource>;
export type License = Row<typeof licensesResource>;

export const userFields = fromDeclaration<UserField>(userFieldsResource, {
  primary: { title: 'Label', width: 220 },
  columns: {
    key: { width: 140 },
    kind: { width: 100 },
    required: { width: 90 },
    maxLength: { width: 110 },
    position: { width: 90 },
    updatedAt: { width: 190 },
  },
  filterPlaceholder: 'Search label or key…',
});

export const batchTemplates = fromDeclaration<BatchTemplate>(batchTemplatesResource, {
  primary: { title: 'Template', width: 220 },
  columns: { divisionName: { width: 180 }, credentialType: { width: 130 }, columns: { width: 100 }, updatedAt: { width: 190 } },
  filterPlaceholder: 'Search templates…',
});

const seat = (used: unknown, limit: unknown) => `${used ?? 0} / ${limit ?? 0}`;
export const licenses = fromDeclaration<License>(licensesResource, {
  primary: { title: 'Licensee', width: 200 },
  columns: {
    modules: { width: 220 },
    identitiesUsed: { title: 'Identities', width: 130, value: (r) => seat(r.identitiesUsed, r.identitySeats) },
    doorsUsed: { title: 'Doors', width: 100, value: (r) => seat(r.doorsUsed, r.doorSeats) },
    readersUsed: { title: 'Readers', width: 100, value: (r) => seat(r.readersUsed, r.readerSeats) },
    operatorsUsed: { title: 'Operators', width: 110, value: (r) => seat(r.operatorsUsed, r.operatorSeats) },
    validTo: { width: 110 },
  },
});
