// Every declaration against the migrated database (PGlite here; PostgreSQL too when the suite runs with
// DATABASE_URL): columns, types, nullability, unique indexes, foreign keys, join and child tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, date, defineResource, number, ref, resourceByName, text } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { driftOf } from './drift';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('declarations match the database', () => {
  it.each(CATALOGUE.map((r) => [r.name, r] as const))(
    '%s: every declared column, type, nullability, unique index and reference is in the schema',
    async (_n, r) => {
      expect(await driftOf(s.db, r, resourceByName)).toEqual([]);
    },
  );

  it('reports a declaration that drifted: a missing column, a wrong type, a wrong nullability, a missing unique index and foreign key', async () => {
    const drifted = defineResource({
      name: 'identities',
      table: 'identities',
      api: '/x',
      route: '/x',
      section: 'manage',
      label: { one: 'X', many: 'Xs' },
      icon: 'x',
      privileges: { view: '0.3.1.0' },
      scope: { tenant: true },
      fields: {
        nickname: text({ max: 10 }),
        employeeNo: number({ required: true }),
        email: text({ max: 10, required: true }),
        phone: text({ max: 10, unique: 'tenant' }),
        status: ref('divisions'),
        validTo: date(),
      },
      list: { title: ['employeeNo'], columns: [], sort: ['employeeNo', 'asc'] },
      form: [],
    });
    const found = await driftOf(s.db, drifted, resourceByName);
    expect(found).toEqual([
      'identities: nickname has no column identities.nickname',
      'identities: employeeNo is integer but identities.employee_no is text',
      'identities: email is required but identities.email is nullable',
      'identities: phone is unique per tenant but identities has no unique index on (client_id, phone)',
      'identities: status is integer but identities.status is text',
      'identities: status is optional but identities.status is not null',
      'identities: identities.status is not a foreign key to divisions',
    ]);
  });
});
