// Just-in-time operator accounts (issue 49): the provider's person is linked to one Gatehouse account by the provider
// and its subject (never by a username, so a provider can never take over an account it did not make); the groups
// the provider sends decide the account's roles, per client, at every sign-in. A person in no mapped group gets
// nothing: no account is made, and an account made before loses what the provider's groups gave it.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/db';
import * as q from '../../db/queries/iam';
import { audit } from '../../audit/trail';
import { HttpError, fill } from '../../http/kit';
import { GROUPS_MAX, GROUP_NAME_MAX, type RoleMapping } from './config';

/** What the provider said about the person, once its token was checked. */
export interface ProviderPerson {
  subject: string;
  username: string | null;
  name: string | null;
  email: string | null;
  groups: unknown;
}

export interface ProviderRef {
  key: string;
  name: string;
  roleMap: RoleMapping[];
  clientScope: number | null;
}

export const NO_MAPPED_GROUP = fill(
  'iam.noMappedGroup',
  'You are in none of the groups of your organisation that give access to Gatehouse, so no account was made for you. Ask your administrator to add you to one.',
  {},
);
const DISABLED = fill('account.disabled', 'This account is disabled in Gatehouse: ask your administrator.', {});

/** The groups claim as a list of names, or a 400 naming what is wrong with it (before anything is written). */
export function groupsOf(claim: unknown): string[] {
  if (claim === undefined || claim === null) return [];
  const list = typeof claim === 'string' ? [claim] : claim;
  if (!Array.isArray(list))
    throw new HttpError(400, fill('iam.groupsNotList', 'The identity provider sent a groups claim that is not a list', {}), [
      { field: 'groups', ...fill('iam.isNotList', 'is not a list', {}) },
    ]);
  if (list.length > GROUPS_MAX)
    throw new HttpError(
      400,
      fill('iam.tooManyGroups', 'The identity provider sent {count} groups; at most {max} are read, so the sign-in was refused', {
        count: list.length,
        max: GROUPS_MAX,
      }),
      [{ field: 'groups', ...fill('iam.hasMoreThan', 'has more than {max} entries', { max: GROUPS_MAX }) }],
    );
  if (list.some((g) => typeof g !== 'string' || g.length > GROUP_NAME_MAX))
    throw new HttpError(
      400,
      fill('iam.groupNameTooLong', 'The identity provider sent a group that is not a name of at most {max} characters', { max: GROUP_NAME_MAX }),
      [{ field: 'groups', ...fill('iam.holdsNotGroupName', 'holds a value that is not a group name', {}) }],
    );
  return list as string[];
}

interface Grant {
  clientId: number;
  roleId: number;
}

/** The roles the groups give, per client (clients by code, roles by code within the client); a provider of one client grants in it alone. */
async function grantsOf(db: Db, provider: ProviderRef, groups: string[]): Promise<Grant[]> {
  const held = new Set(groups);
  const wanted = provider.roleMap.filter((m) => held.has(m.group));
  const out = new Map<string, Grant>();
  for (const m of wanted) {
    for (const r of await q.mappedRoles(db, m.clientCode, m.roleCode, provider.clientScope))
      out.set(`${r.client_id}:${r.role_id}`, { clientId: Number(r.client_id), roleId: Number(r.role_id) });
  }
  return [...out.values()];
}

const USERNAME_MAX = 100;
/** A username for a new account: the provider's, else its e-mail's, else its subject; numbered when taken. */
async function freeUsername(db: Db, p: ProviderPerson): Promise<string> {
  const base =
    (p.username ?? p.email ?? `iam-${p.subject}`)
      .normalize('NFKC')
      .replace(/[^\p{L}\p{N}._@+-]/gu, '')
      .slice(0, USERNAME_MAX - 4) || 'iam-user';
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? base : `${base}.${n}`;
    if (!(await q.usernameTaken(db, name))) return name;
  }
  throw new HttpError(409, fill('username.noneFree', 'No free username could be made for this person', {}));
}

const grantView = async (db: Db, userId: number, provider: string) =>
  (await q.providerGrants(db, userId, provider)).map((r) => ({ clientId: Number(r.client_id), role: r.role_code }));

/**
 * Makes or updates the person's account from what the provider said; returns its id. Refused (403, in words) when
 * the groups give nothing: a new person gets no account, a known one loses the provider's grants and its sessions.
 */
export async function signInPerson(db: Db, req: FastifyRequest, provider: ProviderRef, person: ProviderPerson): Promise<number> {
  const groups = groupsOf(person.groups);
  const grants = await grantsOf(db, provider, groups);
  const refusal = await db.transaction(async (tx) => {
    let userId = await q.linkedAccount(tx, provider.key, person.subject);
    if (!grants.length) {
      if (userId === null) return NO_MAPPED_GROUP;
      const before = await grantView(tx, userId, provider.key);
      await q.deleteProviderGrants(tx, userId, provider.key);
      await q.endSessionsByProvider(tx, userId);
      for (const clientId of new Set(before.map((g) => g.clientId)))
        await audit(tx, req, {
          clientId,
          actor: provider.name,
          action: 'update',
          entity: 'operator',
          entityId: userId,
          before: { grants: before },
          after: { grants: [] },
        });
      return NO_MAPPED_GROUP;
    }
    const clients = [...new Set(grants.map((g) => g.clientId))];
    if (userId === null) {
      const username = await freeUsername(tx, person);
      userId = await q.insertIamUser(tx, {
        username,
        name: (person.name ?? username).slice(0, 200),
        email: person.email,
        multiTenancy: clients.length > 1,
        homeClientId: clients[0],
        selectedClientId: clients.length === 1 ? clients[0] : null,
      });
      await q.linkAccount(tx, provider.key, person.subject, userId);
      for (const clientId of clients)
        await audit(tx, req, {
          clientId,
          actor: provider.name,
          action: 'create',
          entity: 'operator',
          entityId: userId,
          before: null,
          after: { username, provider: provider.key },
        });
    } else {
      if (await q.isDisabled(tx, userId)) return DISABLED;
      await q.updateIamUser(tx, userId, {
        name: person.name?.slice(0, 200) ?? null,
        email: person.email,
        multiTenancy: clients.length > 1,
        onlyClient: clients.length === 1 ? clients[0] : null,
        clients,
      });
      await q.touchLinkedAccount(tx, provider.key, person.subject);
    }
    const before = await grantView(tx, userId, provider.key);
    await q.deleteProviderGrants(tx, userId, provider.key);
    for (const g of grants) await q.insertProviderGrant(tx, userId, g.roleId, g.clientId, provider.key);
    const after = await grantView(tx, userId, provider.key);
    if (JSON.stringify(before) !== JSON.stringify(after))
      for (const clientId of new Set([...before, ...after].map((g) => g.clientId)))
        await audit(tx, req, {
          clientId,
          actor: provider.name,
          action: 'update',
          entity: 'operator',
          entityId: userId,
          before: { grants: before },
          after: { grants: after },
        });
    return userId;
  });
  if (typeof refusal !== 'number') throw new HttpError(403, refusal);
  return refusal;
}
