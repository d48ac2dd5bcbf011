// Clients (tenants) on the server, beyond the declaration: a new client starts with a Headquarters division, and
// the platform operator who created it administers it (and from then on works in more than one client).
import type { ResourceHooks } from '../crud/hooks';
import { insertDivision } from '../db/queries/divisions';
import { addGrant } from '../db/queries/grants';
import { enableMultiTenancy } from '../db/queries/users';

export const clientHooks: ResourceHooks = {
  async afterInsert(ctx, row) {
    const hq = await insertDivision(ctx.tx, row.id, 'Headquarters', null);
    await addGrant(ctx.tx, { userId: ctx.userId, role: 'administrator', clientId: row.id, divisionId: hq });
    await enableMultiTenancy(ctx.tx, ctx.userId);
  },
};
