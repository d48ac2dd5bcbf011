// Access administration beyond the catalogue (issue 11): the privileges screen's catalogue with the roles holding
// each code [0.3.5.0], a role's ticks for the assign-privileges screen [0.3.6.0], the operators of the client
// [0.3.3.x] (created with an initial password that follows the client's policy, disabled, enabled, their
// password reset), and the client's operator settings [0.3.7.0]. The same scope and audit helpers as the
// catalogue: another client's id is 404, every change is audited.
// Issue 27: an operator account is one sign-in across clients, so disable, enable and reset-password change the
// whole account (config `touches: 'account'`, checked by server/auth/accountScope.ts): a client's administrator may
// do them only to an account that belongs to clients they administer alone, and holds no platform role. Anyone who
// administers the client may remove an account from it (its roles and groups here, its sessions here).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API,
  CreateOperatorRequest,
  OperatorSettingsSchema,
  PLATFORM_PRIVILEGES,
  PRIV,
  PRIVILEGES,
  ResetPasswordRequest,
  operatorsResource,
  type PrivilegeHolders,
} from '../../contract';
import { hashPassword } from '../auth/passwords';
import { newPasswordViolations, saveSettings, setPasswordKeepingHistory, settingsOf, type PolicyDefaults } from '../auth/policy';
import type { Db } from '../db/db';
import { HttpError, body, clientOf, idParam, principal, fill, INVALID_REQUEST } from '../http/kit';
import { labelCodesOf, optionCodesOf } from '../crud/context';
import { audit } from '../audit/trail';
import { reachOf, refusalSentence, refusals } from '../auth/accountScope';
import { rolePrivileges } from './roles';
import {
  clientOperator,
  clientOperatorIds,
  clientOperatorOptions,
  dropClientGrants,
  endClientSessions,
  endOperatorSessions,
  insertOperator,
  leaveClientGroups,
  listClientOperators,
  moveOperatorHome,
  roleInClient,
  rolePrivilegeHolders,
  setOperatorDisabled,
  unlockOperator,
  usernameTaken,
} from '../db/queries/operators';

interface Options {
  db: Db;
  defaults: PolicyDefaults;
  /** Drop the real-time connections of ended sessions (by jti), after the commit. */
  disconnect?: (jtis: string[]) => void;
}

export function accessAdminRoutes(app: FastifyInstance, { db, defaults, disconnect }: Options) {
  app.get(API.privileges, { config: { privileges: [PRIV.privileges.view] } }, async (req): Promise<PrivilegeHolders[]> => {
    const clientId = clientOf(req);
    const rows = await rolePrivilegeHolders(db, clientId);
    return PRIVILEGES.map((p) => ({
      code: p.code,
      label: p.label,
      platform: PLATFORM_PRIVILEGES.includes(p.code),
      roles: rows.filter((r) => r.privilege === p.code).map((r) => ({ id: r.id, name: r.name, divisionId: r.division_id })),
    }));
  });

  app.get(`${API.roles}/:id/privileges`, { config: { privileges: [PRIV.roles.view] } }, async (req) => {
    const id = idParam(req, 'Role');
    if (!(await roleInClient(db, clientOf(req), id))) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Role' }));
    return { privileges: await rolePrivileges(db, id) };
  });

  // ---------- operators ----------
  const operatorOf = async (dbx: Db, req: FastifyRequest) => {
    const id = idParam(req, 'Operator');
    const op = await clientOperator(dbx, clientOf(req), id);
    if (!op) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Operator' }));
    return op;
  };

  /** The operator an account-level route names, when it is one of this client's (else none: the handler's 404). */
  const accountOf = async (dbx: Db, req: FastifyRequest): Promise<number[]> => {
    const raw = (req.params as Record<string, string | undefined>).id ?? '';
    if (!/^\d{1,10}$/.test(raw) || Number(raw) > 2_147_483_647 || req.principal?.clientId == null) return [];
    const rows = await clientOperatorIds(dbx, req.principal.clientId, Number(raw));
    return rows.map((r) => Number(r.id));
  };
  const account = { touches: 'account' as const, accounts: accountOf };

  app.get(API.operators, { config: { privileges: [PRIV.operatorGroups.view] } }, async (req) => {
    const clientId = clientOf(req);
    const q = String((req.query as Record<string, unknown>)?.q ?? '')
      .trim()
      .slice(0, 100);
    const rows = await listClientOperators(db, clientId, q);
    // issue 27: which accounts also work elsewhere, and why this caller may not change them (null: they may)
    const ids = rows.map((r) => Number(r.id));
    const reach = await reachOf(db, ids);
    const refused = await refusals(db, req.principal!.userId, ids, [PRIV.operatorGroups.edit]);
    const items = rows.map((r) => {
      const a = reach.get(Number(r.id));
      const why = refused.get(Number(r.id));
      return { ...r, shared: !!a && (a.platform || a.clients.some((c) => c !== clientId)), accountLocked: why ? refusalSentence(why) : null };
    });
    return { items, total: items.length, page: 0, size: Math.max(1, items.length) };
  });

  // the operator pickers (operator groups' members, teams' leave approvers), in the catalogue's options shape
  // ({items: [{id, label}]}) and by its rule (server/crud/context.ts): who may pick operators in a form searches them;
  // who may only see a record naming some (a team's approvers, to its viewers) has their names by id
  const pickCodes = optionCodesOf(operatorsResource);
  app.get(`${API.operators}/options`, { config: { privileges: labelCodesOf(operatorsResource) } }, async (req) => {
    const clientId = clientOf(req);
    const raw = (req.query ?? {}) as Record<string, unknown>;
    const q = typeof raw.q === 'string' ? raw.q.slice(0, 200).trim() : '';
    const ids = typeof raw.ids === 'string' && raw.ids !== '' ? raw.ids.split(',').map(Number) : [];
    if (ids.some((x) => !Number.isInteger(x) || x < 1 || x > 2_147_483_647) || ids.length > 1000)
      throw new HttpError(400, INVALID_REQUEST, [{ field: 'ids', ...fill('list.notWholeNumbers', 'must be whole numbers separated by commas', {}) }]);
    if (!ids.length && !pickCodes.some((c) => principal(req).held.has(c)))
      throw new HttpError(403, fill('privilege.missing', 'You do not have the privilege for this action', {}));
    return { items: await clientOperatorOptions(db, clientId, ids, q, ids.length || 50) };
  });

  // a new account belongs to this client alone
  app.post(API.operators, { config: { privileges: [PRIV.operatorGroups.add], touches: 'client' } }, async (req, reply) => {
    const clientId = clientOf(req);
    const input = body(req.body, CreateOperatorRequest);
    const username = input.username.trim().toLowerCase();
    const v = [];
    if (!/^[a-z0-9][a-z0-9._-]*$/.test(username))
      v.push({ field: 'username', ...fill('username.wrongCharacters', 'letters, digits, dot, dash or underscore', {}) });
    if (await usernameTaken(db, username)) v.push({ field: 'username', ...fill('username.taken', 'is already taken', {}) });
    v.push(...(await newPasswordViolations(db, 0, input.password, await settingsOf(db, clientId, defaults), 'password')));
    if (v.length) throw new HttpError(400, INVALID_REQUEST, v);
    const hash = await hashPassword(input.password);
    const id = await db.transaction(async (tx) => {
      const created = await insertOperator(tx, { username, passwordHash: hash, name: input.name.trim(), email: input.email ?? null, clientId });
      await audit(tx, req, {
        clientId,
        action: 'create',
        entity: 'operator',
        entityId: created,
        before: null,
        after: { username, name: input.name.trim(), email: input.email ?? null },
      });
      return created;
    });
    return reply.code(201).send({ id, username, name: input.name.trim(), email: input.email ?? null, disabled: false });
  });

  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(`${API.operators}/:id/${action}`, { config: { privileges: [PRIV.operatorGroups.edit], ...account } }, async (req) => {
      const clientId = clientOf(req);
      return db.transaction(async (tx) => {
        const before = await operatorOf(tx, req);
        if (disabled && before.id === req.principal!.userId) throw new HttpError(409, fill('operator.cannotDisableSelf', 'You cannot disable yourself', {}));
        await setOperatorDisabled(tx, before.id, disabled);
        // a disabled operator's open sessions end at once
        if (disabled) await endOperatorSessions(tx, before.id, req.principal!.username);
        await audit(tx, req, { clientId, action, entity: 'operator', entityId: before.id, before: { disabled: before.disabled }, after: { disabled } });
        return { ...before, disabled };
      });
    });
  }

  app.post(`${API.operators}/:id/reset-password`, { config: { privileges: [PRIV.operatorGroups.edit], ...account, credential: true } }, async (req) => {
    const clientId = clientOf(req);
    const input = body(req.body, ResetPasswordRequest);
    return db.transaction(async (tx) => {
      const op = await operatorOf(tx, req);
      const v = await newPasswordViolations(tx, op.id, input.password, await settingsOf(tx, clientId, defaults), 'password');
      if (v.length) throw new HttpError(400, INVALID_REQUEST, v);
      // every session of the operator ends (migration 131); an administrator resetting their own keeps this one
      const self = op.id === req.principal!.userId ? req.principal!.jti : null;
      await setPasswordKeepingHistory(tx, op.id, await hashPassword(input.password), self);
      await unlockOperator(tx, op.id);
      await audit(tx, req, { clientId, action: 'reset-password', entity: 'operator', entityId: op.id, before: null, after: null });
      return { ok: true };
    });
  });

  // Remove an account from this client (issue 27): its roles and group memberships here go, its home moves to another
  // client it works in, and its sessions in this client end; the account and its other clients are untouched. An
  // account that works for this client alone is disabled instead (removing it would leave it in no client).
  app.post(`${API.operators}/:id/remove`, { config: { privileges: [PRIV.operatorGroups.edit], touches: 'client' } }, async (req) => {
    const clientId = clientOf(req);
    const result = await db.transaction(async (tx) => {
      const op = await operatorOf(tx, req);
      if (op.id === req.principal!.userId) throw new HttpError(409, fill('operator.cannotRemoveSelf', 'You cannot remove yourself from this client', {}));
      const others = (await reachOf(tx, [op.id])).get(op.id)?.clients.filter((c) => c !== clientId) ?? [];
      if (!others.length) throw new HttpError(409, fill('account.thisClientAlone', 'This account works for this client alone: disable it instead', {}));
      const groups = await leaveClientGroups(tx, clientId, op.id);
      const grants = await dropClientGrants(tx, clientId, op.id);
      // its home and selected client move to another client it still works in
      const now = (await reachOf(tx, [op.id])).get(op.id)?.clients.filter((c) => c !== clientId) ?? others;
      await moveOperatorHome(tx, op.id, clientId, now[0] ?? others[0]);
      const ended = await endClientSessions(tx, clientId, op.id, req.principal!.username);
      await audit(tx, req, {
        clientId,
        action: 'remove',
        entity: 'operator',
        entityId: op.id,
        before: { username: op.username, groups: groups.map((g) => g.name).sort(), grants },
        after: { sessionsEnded: ended.length },
      });
      return { id: op.id, removed: true, sessionsEnded: ended.length, jtis: ended.map((r) => r.jti) };
    });
    disconnect?.(result.jtis);
    return { id: result.id, removed: result.removed, sessionsEnded: result.sessionsEnded };
  });

  // ---------- operator settings ----------
  app.get(API.operatorSettings, { config: { privileges: [PRIV.operatorSettings] } }, async (req) => settingsOf(db, clientOf(req), defaults));
  app.put(API.operatorSettings, { config: { privileges: [PRIV.operatorSettings], touches: 'client' } }, async (req) => {
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
