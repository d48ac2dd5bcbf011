// Accounts that belong to more than one client (issue 27). An operator account is one sign-in across clients: its
// users row (password, disabled, lock, name, e-mail) and its sessions are not any one client's. A client's
// administrator may change them only when every membership of the account (its home client, a role granted there,
// a group there) lies in a client where the administrator holds the same privilege, and the account holds no
// platform role; otherwise 403 with a sentence saying why, and nothing changes. A platform operator may do all of it.
// Objects of the whole installation (backups, auto-backup settings, new clients) are platform operators' only.
//
// Each mutating route says what it touches in its config (`touches`), so the route table itself says it:
// - 'client': rows of the selected client only (the catalogue's tenant resources, a membership in this client);
// - 'self': the caller's own account (profile, own password, sign out);
// - 'account': an account's users row or sessions; `accounts(db, req)` names the accounts the request would change
//   (those within the client alone may be left out: a session of this client), and every one is checked here;
// - 'platform': an object of the whole installation.
// The preHandler below enforces 'account' and 'platform' for every route; server/auth/accountBoundary.test.ts
// walks Fastify's route table and refuses a mutating route that declares nothing.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { heldPrivilegeIds, hasPrivilege, isNoTokenPath } from '../../contract';
import type { Db } from '../db/db';
import { HttpError, type Principal, fill } from '../http/kit';
import { privilegeEntries } from './access';
import { accountReachRows, holdsPlatformRole, serviceAccountUserIds } from '../db/queries/accountScope';

export type Touches = 'client' | 'self' | 'account' | 'platform';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route changes beyond the selected client's rows (issue 27); see server/auth/accountScope.ts. */
    touches?: Touches;
    /** 'account' routes: the accounts (users ids) this request would change; empty: none outside the client. */
    accounts?: (db: Db, req: FastifyRequest) => Promise<number[]>;
    /**
     * The route changes a sign-in credential (a password; later MFA factors): every other session of the account ends
     * with it (issue 45). `server/auth/sessionsFollowCredentials.test.ts` drives every route declaring it.
     */
    credential?: true;
  }
}

export const PLATFORM_ROLE = 'platform-operator';

export async function isPlatformOperator(db: Db, userId: number): Promise<boolean> {
  return holdsPlatformRole(db, userId, PLATFORM_ROLE);
}

export interface AccountReach {
  clients: number[];
  platform: boolean;
}

/** Each account's memberships and whether it holds the platform role. */
export async function reachOf(db: Db, userIds: readonly number[]): Promise<Map<number, AccountReach>> {
  const out = new Map<number, AccountReach>();
  if (!userIds.length) return out;
  const rows = await accountReachRows(db, [...new Set(userIds)], PLATFORM_ROLE);
  for (const r of rows) out.set(Number(r.id), { clients: (r.clients ?? []).map(Number), platform: r.platform });
  return out;
}

/** The clients (of `among`) where the actor holds one of `codes`: the clients whose accounts they administer. */
export async function clientsAdministered(db: Db, actorId: number, codes: readonly string[], among: readonly number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (const c of new Set(among)) {
    if (hasPrivilege(heldPrivilegeIds(await privilegeEntries(db, actorId, c)), [...codes])) out.add(c);
  }
  return out;
}

/** Why a client's administrator may not change an account: it holds the platform role, or belongs to a client they do not administer. */
export type Refusal = 'platform' | 'shared';

/**
 * The accounts among `userIds` the actor may not change (credentials or state), with why. `codes`: the privileges
 * the change needs in each client (the route's). A platform operator may change every account.
 */
export async function refusals(db: Db, actorId: number, userIds: readonly number[], codes: readonly string[]): Promise<Map<number, Refusal>> {
  const out = new Map<number, Refusal>();
  if (!userIds.length || (await isPlatformOperator(db, actorId))) return out;
  const reach = await reachOf(db, userIds);
  const mine = await clientsAdministered(
    db,
    actorId,
    codes,
    [...reach.values()].flatMap((r) => r.clients),
  );
  for (const id of new Set(userIds)) {
    const r = reach.get(id);
    if (!r) continue; // no such account: the route answers 404 itself
    if (r.platform) out.set(id, 'platform');
    else if (r.clients.some((c) => !mine.has(c))) out.set(id, 'shared');
  }
  return out;
}

/** The sentence of a refusal, as the 403 says it (the operators list shows the same words beside the account). */
export function refusalSentence(why: Refusal): string {
  return why === 'platform'
    ? 'This account is a platform operator: only a platform operator can change it. You can remove it from this client'
    : 'This account also works for other clients: a platform operator can change it. You can remove it from this client or end its sessions here';
}

/**
 * The one check (issue 27): 403 unless the principal may change the accounts' credentials or state, i.e. is a
 * platform operator, or each account holds no platform role and every client it belongs to is one where the
 * principal holds one of `codes`. Nothing is changed before it passes.
 */
export async function assertAccountWithinClients(
  db: Db,
  p: Pick<Principal, 'userId'>,
  userIds: number | readonly number[],
  codes: readonly string[],
): Promise<void> {
  const why = new Set((await refusals(db, p.userId, typeof userIds === 'number' ? [userIds] : userIds, codes)).values());
  for (const refusal of ['platform', 'shared'] as const) if (why.has(refusal)) throw new HttpError(403, refusalSentence(refusal));
}

/** 403 unless the principal is a platform operator: objects of the whole installation. */
export async function assertPlatformOperator(db: Db, p: Pick<Principal, 'userId'>): Promise<void> {
  if (!(await isPlatformOperator(db, p.userId)))
    throw new HttpError(403, fill('record.platformOnly', 'This belongs to the whole installation, not one client: only a platform operator can change it', {}));
}

/**
 * The preHandler after authentication: a route that touches an account checks every account the request names, a
 * route that touches the platform needs a platform operator. Unauthenticated routes have no principal to check.
 */
export function accountScopeHook(db: Db) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    const cfg = req.routeOptions.config;
    if (!req.principal || !cfg.touches) return;
    if (cfg.touches === 'platform') await assertPlatformOperator(db, req.principal);
    if (cfg.touches === 'account') {
      const ids = cfg.accounts ? await cfg.accounts(db, req) : [];
      if (ids.length) await assertAccountWithinClients(db, req.principal, ids, cfg.privileges ?? []);
    }
  };
}

// ---------- what the route table says ----------
// Every mutating route says what it touches in its own config: the catalogue's from its declaration and hooks
// (server/crud/plugin.ts), a hand-written route where it is registered. server/auth/accountBoundary.test.ts walks the
// route table and fails on a mutating route that says nothing.

/** The service accounts a catalogue request on one row names (its users row is changed with it: name, keys, sessions). */
export const serviceAccountUsers = async (db: Db, req: FastifyRequest): Promise<number[]> => {
  const raw = (req.params as Record<string, string | undefined>).id ?? '';
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > 2_147_483_647 || req.principal?.clientId == null) return [];
  // the client's own service account only: another client's is the route's 404
  return serviceAccountUserIds(db, req.principal.clientId, Number(raw));
};

/** Routes that need no token (sign-in, reset links, registration): no principal, no client administrator. */
export const isOpenRoute = (url: string, config: { open?: boolean } | undefined) => !!config?.open || isNoTokenPath(url);
