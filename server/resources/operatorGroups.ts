// Operator groups on the server, beyond the declaration: each role a group grants is a role of the client and
// its division one of the client's (the catalogue checks top-level references; these live in child rows).
import type { Violation } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { notYours } from '../crud/checks';
import { divisionIdsOf } from '../db/queries/divisions';
import { roleIdsOf } from '../db/queries/roles';

export const operatorGroupHooks: ResourceHooks = {
  async validate(ctx, input) {
    const grants = Array.isArray(input.grants) ? (input.grants as { roleId?: number | null; divisionId?: number | null }[]) : [];
    if (!grants.length) return [];
    const roles = new Set(await roleIdsOf(ctx.tx, ctx.clientId));
    const divisions = new Set((await divisionIdsOf(ctx.tx, ctx.clientId)).map((r) => r.id));
    const v: Violation[] = [];
    grants.forEach((g, i) => {
      if (typeof g.roleId === 'number' && !roles.has(g.roleId)) v.push({ field: `grants.${i}.roleId`, ...notYours('role') });
      if (typeof g.divisionId === 'number' && !divisions.has(g.divisionId)) v.push({ field: `grants.${i}.divisionId`, ...notYours('division') });
    });
    return v;
  },
};
