// Access administration beyond the catalogue (issue 11): the privileges screen's catalogue with the roles holding
// each code [0.3.5.0], a role's ticks for the assign-privileges screen [0.3.6.0], the operators of the client
// [0.3.3.x] (created with an initial password that follows the client's policy, disabled, enabled, their
// password reset), and the client's operator settings [0.3.7.0]. The same scope and audit helpers as the
// catalogue: another client's id is 404, every change is audited.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API, CreateOperatorRequest, OperatorSettingsSchema, PLATFORM_PRIVILEGES, PRIV, PRIVILEGES, ResetPasswordRequest, type PrivilegeHolders,
} from '../../contract';
import { hashPassword } from '../auth/passwords';
import { newPasswordViolations, saveSettings, setPasswordKeepingHistory, settingsOf, type PolicyDefaults } from '../auth/policy';
import type { Db } from '../db/db';
import { HttpError, audit, body, clientOf, idParam } from '../http/common';
import { rolePrivileges } from './roles';

interface Options { db: Db; defaults: PolicyDefaults }

export function accessAdminRoutes(app: FastifyInstance, { db, defaults }: Options) {
  app.get(API.privileges, { config: { privileges: [PRIV.privileges.view] } }, async (req): Promise<PrivilegeHolders[]> => {
    const clientId = clientOf(req);
    const { rows } = await db.query<{ privilege: string; id: number; name: string; division_id: number | null }>(
      `select rp.privilege, r.id, r.name, rp.division_id from role_privileges rp join roles r on r.id = rp.role_id
        where r.client_id = $1 order by r.name, rp.division_id nulls first`, [clientId]);
    return PRIVILEGES.map((p) => ({
      code: p.code, label: p.label, platform: PLATFORM_PRIVILEGES.includes(p.code),
      roles: rows.filter((r) => r.privilege === p.code).map((r) => ({ id: r.id, name: r.name, divisionId: r.division_id })),
    }));
  });

  app.get(`${API.roles}/:id/privileges`, { config: { privileges: [PRIV.roles.view] } }, async (req) => {
    const id = idParam(req, 'Role');
    const { rows } = await db.query('select 1 from roles where id = $1 and client_id = $2', [id, clientOf(req)]);
    if (!rows.length) throw new HttpError(404, 'Role not found');
    return { privileges: await rolePrivileges(db, id) };
  });

  // ---------- operators ----------
  const operatorOf = async (dbx: Db, req: FastifyRequest) => {
    const id = idParam(req, 'Operator');
    const { rows } = await dbx.query<{ id: number; username: string; name: string; disabled: boolean }>(
      'select id, username, name, disabled from tenant_operators where id = $1 and client_id = $2 limit 1', [id, clientOf(req)]);
    if (!rows[0]) throw new HttpError(404, 'Operator not found');
    return rows[0];
  };

  app.get(API.operators, { config: { privileges: [PRIV.operatorGroups.view] } }, async (req) => {
    const clientId = clientOf(req);
    const q = String((req.query as Record<string, unknown>)?.q ?? '').trim().slice(0, 100);
    const { rows } = await db.query(
      `select distinct on (o.name, o.id) o.id, o.username, o.name, o.email, o.disabled, o.created_at "createdAt",
              array(select g.name from operator_groups g join operator_group_members m on m.group_id = g.id where m.user_id = o.id and g.client_id = $1 order by g.name) groups
         from tenant_operators o where o.client_id = $1 and ($2 = '' or o.name ilike '%' || $2 || '%' or o.username ilike '%' || $2 || '%')
        order by o.name, o.id limit 500`, [clientId, q]);
    return { items: rows, total: rows.length };
  });

  // the member picker of operator groups (the catalogue's options shape: {items: [{id, label}]})
  app.get(`${API.operators}/options`, { config: { privileges: [PRIV.operatorGroups.view] } }, async (req) => {
    const clientId = clientOf(req);
    const raw = (req.query ?? {}) as Record<string, unknown>;
    const q = typeof raw.q === 'string' ? raw.q.slice(0, 200).trim() : '';
    const ids = typeof raw.ids === 'string' && raw.ids !== '' ? raw.ids.split(',').map(Number) : [];
    if (ids.some((x) => !Number.isInteger(x) || x < 1 || x > 2_147_483_647) || ids.length > 1000) throw new HttpError(400, 'Validation failed', [{ field: 'ids', message: 'must be whole numbers separated by commas' }]);
    const { rows } = await db.query<{ id: number; label: string }>(
      `select distinct o.id, o.name || ' (' || o.username || ')' as label from tenant_operators o
        where o.client_id = $1 and (cardinality($2::int[]) = 0 or o.id = any($2::int[]))
          and ($3 = '' or o.name ilike '%' || $3 || '%' or o.username ilike '%' || $3 || '%')
        order by label, o.id limit ${ids.length || 50}`, [clientId, ids, q]);
    return { items: rows };
  });

  app.post(API.operators, { config: { privileges: [PRIV.operatorGroups.add] } }, async (req, reply) => {
    const clientId = clientOf(req);
    const input = body(req.body, CreateOperatorRequest);
    const username = input.username.trim().toLowerCase();
    const v = [];
    if (!/^[a-z0-9][a-z0-9._-]*$/.test(username)) v.push({ field: 'username', message: 'letters, digits, dot, dash or underscore' });
    if ((await db.query('select 1 from users where username = $1', [username])).rows.length) v.push({ field: 'username', message: 'is already taken' });
    v.push(...(await newPasswordViolations(db, 0, input.password, await settingsOf(db, clientId, defaults), 'password')));
    if (v.length) throw new HttpError(400, 'Validation failed', v);
    const hash = await hashPassword(input.password);
    const id = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number }>(
        `insert into users (username, password_hash, name, email, timezone, home_client_id, selected_client_id)
         select $1, $2, $3, $4, timezone, id, id from clients where id = $5 returning id`, [username, hash, input.name.trim(), input.email ?? null, clientId]);
      await audit(tx, req, { clientId, action: 'create', entity: 'operator', entityId: rows[0].id, before: null, after: { username, name: input.name.trim(), email: input.email ?? null } });
      return rows[0].id;
    });
    return reply.code(201).send({ id, username, name: input.name.trim(), email: input.email ?? null, disabled: false });
  });

  for (const [action, disabled] of [['disable', true], ['enable', false]] as const) {
    app.post(`${API.operators}/:id/${action}`, { config: { privileges: [PRIV.operatorGroups.edit] } }, async (req) => {
      const clientId = clientOf(req);
      return db.transaction(async (tx) => {
        const before = await operatorOf(tx, req);
        if (disabled && before.id === req.principal!.userId) throw new HttpError(409, 'You cannot disable yourself');
        await tx.query('update users set disabled = $2 where id = $1', [before.id, disabled]);
        // a disabled operator's open sessions end at once
        if (disabled) await tx.query(`update sessions set ended_at = now(), ended_by = $2 where user_id = $1 and ended_at is null`, [before.id, req.principal!.username]);
        await audit(tx, req, { clientId, action, entity: 'operator', entityId: before.id, before: { disabled: before.disabled }, after: { disabled } });
        return { ...before, disabled };
      });
    });
  }

  app.post(`${API.operators}/:id/reset-password`, { config: { privileges: [PRIV.operatorGroups.edit] } }, async (req) => {
    const clientId = clientOf(req);
    const input = body(req.body, ResetPasswordRequest);
    return db.transaction(async (tx) => {
      const op = await operatorOf(tx, req);
      const v = await newPasswordViolations(tx, op.id, input.password, await settingsOf(tx, clientId, defaults), 'password');
      if (v.length) throw new HttpError(400, 'Validation failed', v);
      await setPasswordKeepingHistory(tx, op.id, await hashPassword(input.password));
      await tx.query('update users set failed_attempts = 0, locked_until = null where id = $1', [op.id]);
      await audit(tx, req, { clientId, action: 'reset-password', entity: 'operator', entityId: op.id, before: null, after: null });
      return { ok: true };
    });
  });

  // ---------- operator settings ----------
  app.get(API.operatorSettings, { config: { privileges: [PRIV.operatorSettings] } }, async (req) => settingsOf(db, clientOf(req), defaults));
  app.put(API.operatorSettings, { config: { privileges: [PRIV.operatorSettings] } }, async (req) => {
    const clientId = clientOf(req);
    const input = body(req.body, OperatorSettingsSchema);
    return db.transaction(async (tx) => {
      const before = await settingsOf(tx, clientId, defaults);
      await saveSettings(tx, clientId, input);
      await audit(tx, req, { clientId, action: 'update', entity: 'operator settings', entityId: clientId, before, after: input });
      return input;
    });
  });
}
