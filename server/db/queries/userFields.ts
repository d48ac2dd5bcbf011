// User-defined fields (server/resources/userFields.ts; issue 48: its query in the queries room): a client's fields as
// the identity checks read them.
import type { UserFieldDef } from '../../../contract';
import type { Db } from '../db';
import { tenant } from '../tenant';

/** The client's user-defined fields, in their order. */
export async function userFieldDefs(tx: Db, clientId: number): Promise<UserFieldDef[]> {
  const params: unknown[] = [];
  const { rows } = await tx.query<UserFieldDef>(
    `select key, label, kind, required, max_length as "maxLength", options, position from user_fields where ${tenant(params, clientId)} order by coalesce(position, 0), id`,
    params,
  );
  return rows;
}
