// Roles on the server, beyond the declaration: how many privileges a role holds, and the named action that ticks
// them (`assign-privileges`, 0.3.6.4): the role's whole set replaced in one audited change, only codes of the
// catalogue, only divisions of the client, never a platform privilege (9.2.1 is a platform operator's alone).
import { AssignPrivilegesRequest, PLATFORM_PRIVILEGES, PRIV, PRIVILEGE_CODES, type RolePrivilege, type Violation } from '../../contract';
import type { Db } from '../db/db';
import type { ResourceHooks, Row } from '../crud/hooks';
import { HttpError, body } from '../http/kit';
import { tenant } from '../db/tenant';

export async function rolePrivileges(db: Db, roleId: number): Promise<RolePrivilege[]> {
  const { rows } = await db.query<{ code: string; division_id: number | null }>(
    'select privilege code, division_id from role_privileges where role_id = $1 order by privilege, division_id nulls first',
    [roleId],
  );
  return rows.map((r) => ({ code: r.code, divisionId: r.division_id }));
}

export function roleHooks(): ResourceHooks {
  const changed = new WeakMap<Row, { before: RolePrivilege[]; after: RolePrivilege[] }>();
  return {
    select: { privilegeCount: '(select count(*)::int from role_privileges rp where rp.role_id = t.id)' },
    actions: {
      'assign-privileges': {
        privilege: PRIV.roles.assign,
        async run(ctx, before) {
          const input = body(ctx.req.body, AssignPrivilegesRequest);
          const v: Violation[] = [];
          const params: unknown[] = [];
          const divisions = new Set(
            (await ctx.tx.query<{ id: number }>(`select id from divisions where ${tenant(params, ctx.clientId)}`, params)).rows.map((r) => r.id),
          );
          input.privileges.forEach((p, i) => {
            if (!PRIVILEGE_CODES.has(p.code)) v.push({ field: `privileges.${i}.code`, message: `${p.code} is not a privilege of the catalogue` });
            else if (PLATFORM_PRIVILEGES.includes(p.code))
              v.push({ field: `privileges.${i}.code`, message: `${p.code} is a platform privilege; only a platform operator holds it` });
            if (p.divisionId !== null && !divisions.has(p.divisionId))
              v.push({ field: `privileges.${i}.divisionId`, message: 'is not a division of this client' });
          });
          if (v.length) throw new HttpError(400, 'Validation failed', v);
          const want = [...new Map(input.privileges.map((p) => [`${p.code}@${p.divisionId ?? ''}`, p])).values()];
          const was = await rolePrivileges(ctx.tx, before.id);
          await ctx.tx.query('delete from role_privileges where role_id = $1', [before.id]);
          if (want.length) {
            await ctx.tx.query(
              `insert into role_privileges (role_id, privilege, division_id) select $1, x.code, x.division_id
              from unnest($2::text[], $3::int[]) as x(code, division_id)`,
              [before.id, want.map((p) => p.code), want.map((p) => p.divisionId)],
            );
          }
          await ctx.tx.query('update roles set updated_at = now() where id = $1', [before.id]);
          changed.set(before, { before: was, after: await rolePrivileges(ctx.tx, before.id) });
        },
        audit(before) {
          const c = changed.get(before);
          return { before: { name: before.name, privileges: c?.before ?? [] }, after: { name: before.name, privileges: c?.after ?? [] } };
        },
      },
    },
  };
}
