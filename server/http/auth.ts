// Identity provider routes (§7): sign-in with lockout, the signed-in user, settings, profile, client
// selection, sign-out, password reset, registration requests and change password.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import {
  API, ChangePasswordRequest, LoginRequest, ProfileUpdate, RegistrationRequest, ResetFinishRequest, ResetInitRequest,
  SelectClientRequest, Settings,
} from '../../contract';
import { hashPassword, sha256, verifyPassword } from '../auth/passwords';
import { clientIdsOf, privilegeEntries, rolesOf } from '../auth/access';
import type { Tokens } from '../auth/tokens';
import type { Db } from '../db/db';
import { HttpError, audit, body, principal } from './common';

export interface AuthOptions { db: Db; tokens: Tokens; lockout: { attempts: number; minutes: number } }

interface UserRow {
  id: number; username: string; name: string; password_hash: string; avatar_color: string; timezone: string;
  multi_tenancy: boolean; selected_client_id: number | null; settings: unknown; dashboard_pages: unknown;
  failed_attempts: number; locked_until: Date | string | null;
}

const INVALID = 'Invalid username or password';

export async function sessionBody(db: Db, tokens: Tokens, u: UserRow, req: FastifyRequest) {
  const clientId = u.selected_client_id;
  const roles = await rolesOf(db, u.id, clientId);
  const { token, jti } = await tokens.sign({ sub: String(u.id), username: u.username, clientId, roles });
  await db.query('insert into sessions (jti, user_id, ip, user_agent) values ($1,$2,$3,$4)', [jti, u.id, req.ip, String(req.headers['user-agent'] ?? '').slice(0, 300)]);
  return { token, user: userBody(u, roles), privileges: { priviledges: await privilegeEntries(db, u.id, clientId) }, settings: Settings.create(u.settings ?? {}) };
}

export function userBody(u: UserRow, roles: string[]) {
  return {
    id: u.id, username: u.username, name: u.name, avatar: null, roles,
    dashboardPages: (u.dashboard_pages as unknown[]) ?? [], multiTenancyEnabled: u.multi_tenancy,
    clientId: u.selected_client_id, timezone: u.timezone, avatarColor: u.avatar_color || 'blue',
  };
}

async function userById(db: Db, id: number): Promise<UserRow> {
  const { rows } = await db.query<UserRow>('select * from users where id = $1', [id]);
  if (!rows[0]) throw new HttpError(401, 'JWT-Invalid');
  return rows[0];
}

export function authRoutes(app: FastifyInstance, { db, tokens, lockout }: AuthOptions) {
  app.post(API.login, { config: { open: true } }, async (req, reply) => {
    const input = body(req.body, LoginRequest);
    const { rows } = await db.query<UserRow>('select * from users where username = $1', [input.username]);
    const u = rows[0];
    if (u?.locked_until && new Date(u.locked_until).getTime() > Date.now()) {
      throw new HttpError(423, 'Account locked after too many failed sign-ins, try again later');
    }
    if (!u || !(await verifyPassword(input.password, u.password_hash))) {
      if (u) {
        const failed = u.failed_attempts + 1;
        const lock = failed >= lockout.attempts;
        await db.query('update users set failed_attempts = $2, locked_until = $3 where id = $1', [u.id, lock ? 0 : failed, lock ? new Date(Date.now() + lockout.minutes * 60_000) : null]);
        if (lock) await audit(db, req, { clientId: null, action: 'locked', entity: 'user', entityId: u.id, before: null, after: { username: u.username } });
      }
      throw new HttpError(401, INVALID);
    }
    await db.query('update users set failed_attempts = 0, locked_until = null where id = $1', [u.id]);
    return reply.send(await sessionBody(db, tokens, { ...u, failed_attempts: 0 }, req));
  });

  app.get(API.me, async (req) => {
    const p = principal(req);
    const u = await userById(db, p.userId);
    return { user: userBody(u, await rolesOf(db, u.id, p.clientId)), privileges: { priviledges: p.entries }, settings: Settings.create(u.settings ?? {}) };
  });

  app.put(API.meSettings, async (req) => {
    const p = principal(req);
    const u = await userById(db, p.userId);
    const patch = body(req.body, Settings); // defaults fill what the patch leaves out: merge over the stored ones
    const given = (req.body ?? {}) as Record<string, unknown>;
    const merged = Settings.create({ ...(u.settings as object), ...Object.fromEntries(Object.keys(given).map((k) => [k, (patch as Record<string, unknown>)[k]])) });
    await db.query('update users set settings = $2 where id = $1', [u.id, JSON.stringify(merged)]);
    return merged;
  });

  app.put(API.meProfile, async (req) => {
    const p = principal(req);
    const input = body(req.body, ProfileUpdate);
    const before = await userById(db, p.userId);
    await db.query('update users set name = coalesce($2, name), avatar_color = coalesce($3, avatar_color), timezone = coalesce($4, timezone) where id = $1',
      [p.userId, input.name ?? null, input.avatarColor ?? null, input.timezone ?? null]);
    const after = await userById(db, p.userId);
    await audit(db, req, { clientId: p.clientId, action: 'update', entity: 'profile', entityId: p.userId, before: { name: before.name, avatarColor: before.avatar_color, timezone: before.timezone }, after: { name: after.name, avatarColor: after.avatar_color, timezone: after.timezone } });
    return userBody(after, await rolesOf(db, p.userId, p.clientId));
  });

  app.put(API.meClient, async (req, reply) => {
    const p = principal(req);
    const { clientId } = body(req.body, SelectClientRequest);
    if (clientId !== null && !(await clientIdsOf(db, p.userId)).includes(clientId)) throw new HttpError(403, 'You have no access to that client');
    await db.query('update users set selected_client_id = $2 where id = $1', [p.userId, clientId]);
    await db.query('update sessions set ended_at = now() where jti = $1', [p.jti]);
    return reply.send(await sessionBody(db, tokens, await userById(db, p.userId), req));
  });

  app.post(API.logout, async (req) => {
    const p = principal(req);
    await db.query('update sessions set ended_at = now() where jti = $1 and ended_at is null', [p.jti]);
    return { ok: true };
  });

  app.post(API.resetInit, { config: { open: true } }, async (req) => {
    const { username } = body(req.body, ResetInitRequest);
    const { rows } = await db.query<{ id: number }>('select id from users where username = $1', [username]);
    if (rows[0]) {
      const token = randomBytes(24).toString('base64url');
      await db.query('insert into password_resets (token_hash, user_id, expires_at) values ($1,$2,$3)', [sha256(token), rows[0].id, new Date(Date.now() + 3600_000)]);
      // there is no mail here: the outbox is the table and the server log
      req.log.info(`password reset for ${username}: /reset-password?token=${token}`);
      app.resetTokens?.push({ username, token });
    }
    return { ok: true, message: 'If the account exists, a reset link has been sent.' };
  });

  app.post(API.resetFinish, { config: { open: true } }, async (req) => {
    const input = body(req.body, ResetFinishRequest);
    const { rows } = await db.query<{ user_id: number; expires_at: string; used: boolean }>('select * from password_resets where token_hash = $1', [sha256(input.token)]);
    const r = rows[0];
    if (!r || r.used || new Date(r.expires_at).getTime() < Date.now()) throw new HttpError(400, 'This reset link is invalid or has expired', [{ field: 'token', message: 'is invalid or has expired' }]);
    await db.transaction(async (tx) => {
      await tx.query('update users set password_hash = $2, failed_attempts = 0, locked_until = null where id = $1', [r.user_id, await hashPassword(input.newPassword)]);
      await tx.query('update password_resets set used = true where token_hash = $1', [sha256(input.token)]);
      await audit(tx, req, { clientId: null, action: 'reset-password', entity: 'user', entityId: r.user_id, before: null, after: null });
    });
    return { ok: true };
  });

  app.post(API.registration, { config: { open: true } }, async (req, reply) => {
    const input = body(req.body, RegistrationRequest);
    const { rows } = await db.query<{ id: number }>('insert into registration_requests (username, name, email, client_code) values ($1,$2,$3,$4) returning id', [input.username, input.name, input.email, input.clientCode ?? null]);
    return reply.code(201).send({ id: rows[0].id, status: 'pending' });
  });

  app.post(API.changePassword, { config: { open: true } }, async (req) => {
    const input = body(req.body, ChangePasswordRequest);
    const { rows } = await db.query<UserRow>('select * from users where username = $1', [input.username]);
    const u = rows[0];
    if (!u || !(await verifyPassword(input.oldPassword, u.password_hash))) throw new HttpError(400, 'The current password is wrong', [{ field: 'oldPassword', message: 'is wrong' }]);
    await db.query('update users set password_hash = $2 where id = $1', [u.id, await hashPassword(input.newPassword)]);
    await audit(db, req, { clientId: u.selected_client_id, action: 'change-password', entity: 'user', entityId: u.id, before: null, after: null });
    return { ok: true };
  });
}

declare module 'fastify' {
  interface FastifyInstance { resetTokens?: { username: string; token: string }[] }
}
