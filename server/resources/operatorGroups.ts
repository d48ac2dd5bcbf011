// Operator groups on the server, beyond the declaration: each role a group grants is a role of the client and
// its division one of the client's (the catalogue checks top-level references; these live in child rows).
import type { Violation } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { notYours } from '../crud/checks';
import { tenant } from '../db/tenant';

export const operatorGroupHooks: ResourceHooks = {
  async validate(ctx, input) {
    const grants = Array.isArray(input.grants) ? (input.grants as { roleId?: number | null; divisionId?: number | null }[]) : [];
    if (!grants.length) return [];
    const ofRoles: unknown[] = [];
    const roles = new Set((await ctx.tx.query<{ id: number }>(`select id from roles where ${tenant(ofRoles, ctx.clientId)}`, ofRoles)).rows.map((r) => r.id));
    const ofDivisions: unknown[] = [];
    const divisions = new Set(
      (await ctx.tx.query<{ id: number }>(`select id from divisions where ${tenant(ofDivisions, ctx.clientId)}`, ofDivisions)).rows.map((r) => r.id),
    );
    const v: Violation[] = [];
    grants.forEach((g, i) => {
      if (typeof g.roleId === 'number' && !roles.has(g.roleId)) v.push({ field: `grants.${i}.roleId`, ...notYours('role') });
      if (typeof g.divisionId === 'number' && !divisions.has(g.divisionId)) v.push({ field: `grants.${i}.divisionId`, ...notYours('division') });
    });
    return v;
  },
};
