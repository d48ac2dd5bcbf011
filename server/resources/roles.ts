// Roles on the server, beyond the declaration: how many privileges a role holds, and the named action that ticks
// them (`assign-privileges`, 0.3.6.4): the role's whole set replaced in one audited change, only codes of the
// catalogue, only divisions of the client, never a platform privilege (9.2.1 is a platform operator's alone).
import { AssignPrivilegesRequest, PLATFORM_PRIVILEGES, PRIV, PRIVILEGE_CODES, type RolePrivilege, type Violation, fill } from '../../contract';
import type { Db } from '../db/db';
import type { ResourceHooks, Row } from '../crud/hooks';
import { HttpError, body, INVALID_REQUEST } from '../http/kit';
import { divisionIdsOf } from '../db/queries/divisions';
import { privilegesOfRole, replaceRolePrivileges } from '../db/queries/roles';

export async function rolePrivileges(db: Db, roleId: number): Promise<RolePrivilege[]> {
  return (await privilegesOfRole(db, roleId)).map((r) => ({ code: r.code, divisionId: r.division_id }));
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
          const divisions = new Set((await divisionIdsOf(ctx.tx, ctx.clientId)).map((r) => r.id));
          input.privileges.forEach((p, i) => {
            if (!PRIVILEGE_CODES.has(p.code))
              v.push({ field: `privileges.${i}.code`, ...fill('role.unknownPrivilege', '{code} is not a privilege of the catalogue', { code: p.code }) });
            else if (PLATFORM_PRIVILEGES.includes(p.code))
              v.push({
                field: `privileges.${i}.code`,
                ...fill('role.platformPrivilege', '{code} is a platform privilege; only a platform operator holds it', { code: p.code }),
              });
            if (p.divisionId !== null && !divisions.has(p.divisionId))
              v.push({ field: `privileges.${i}.divisionId`, ...fill('division.notOfClient', 'is not a division of this client', {}) });
          });
          if (v.length) throw new HttpError(400, INVALID_REQUEST, v);
          const want = [...new Map(input.privileges.map((p) => [`${p.code}@${p.divisionId ?? ''}`, p])).values()];
          const was = await rolePrivileges(ctx.tx, before.id);
          await replaceRolePrivileges(ctx.tx, before.id, want);
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
