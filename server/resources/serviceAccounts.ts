// Service accounts on the server, beyond the declaration: each is backed by a user of kind 'service' (no password,
// never a console sign-in) holding the account's role in its client, so its key works with exactly those privileges
// (migration 050 keeps the user's name and grant in step with edits). Create and rotate-key answer the new key once;
// revoke-key stops it. Both end the old key's session and are audited without the key.
import { PRIV } from '../../contract';
import { apiKeySessionJti, endKeySession, newApiKey } from '../auth/apiKeys';
import { serviceAccountUsers } from '../auth/accountScope';
import type { CrudContext, ResourceHooks } from '../crud/hooks';
import { HttpError, fill } from '../http/kit';
import { tenant } from '../db/tenant';

const slug = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40) || 'account';

function reveal(ctx: CrudContext, key: string) {
  ctx.req.oneTime = { apiKey: key };
}

/** The old key's session ended by a rotate or revoke, per account, until the commit drops its live connections. */
const ended = new Map<number, string>();
const dropAfterCommit = (disconnect?: (jtis: string[]) => void) => (_clientId: number, after: { id: number }) => {
  const jti = ended.get(after.id);
  ended.delete(after.id);
  if (jti) disconnect?.([jti]);
};

/** `disconnect`: drop the real-time (STOMP) connections of ended sessions, by jti (issue 11: a rotated key's too). */
export const serviceAccountHooks = (disconnect?: (jtis: string[]) => void): ResourceHooks => ({
  // a service account's users row is changed with it: its record routes touch that account (issue 27)
  accounts: serviceAccountUsers,
  async beforeInsert(ctx, input) {
    const key = newApiKey();
    const { rows } = await ctx.tx.query<{ id: number }>(
      `insert into users (username, password_hash, name, kind, timezone, home_client_id, selected_client_id)
      select $1, 'none$service-account', $2, 'service', c.timezone, c.id, c.id from clients c where c.id = $3 returning id`,
      [`sa-${key.keyId.slice(0, 6)}-${slug(String(input.name))}`, input.name, ctx.clientId],
    );
    reveal(ctx, key.key);
    return { user_id: rows[0].id, key_id: key.keyId, key_hash: key.hash, key_prefix: key.prefix, key_issued_at: new Date() };
  },
  async afterInsert(ctx, row) {
    await ctx.tx.query(`insert into user_grants (user_id, role_code, client_id) select user_id, role, client_id from service_accounts where id = $1`, [row.id]);
  },
  actions: {
    'rotate-key': {
      privilege: PRIV.serviceAccounts.edit,
      async run(ctx, before) {
        const key = newApiKey();
        const params: unknown[] = [before.id];
        const { rows } = await ctx.tx.query<{ key_id: string | null }>(
          `select key_id from service_accounts where id = $1 and ${tenant(params, ctx.clientId)}`,
          params,
        );
        const issue: unknown[] = [before.id, key.keyId, key.hash, key.prefix];
        await ctx.tx.query(
          `update service_accounts set key_id = $2, key_hash = $3, key_prefix = $4, key_issued_at = now(), key_revoked_at = null, updated_at = now()
          where id = $1 and ${tenant(issue, ctx.clientId)}`,
          issue,
        );
        await endKeySession(ctx.tx, rows[0]?.key_id ?? null, ctx.username);
        if (rows[0]?.key_id) ended.set(before.id, apiKeySessionJti(rows[0].key_id));
        reveal(ctx, key.key);
      },
      afterCommit: dropAfterCommit(disconnect),
      audit: (before, after) => ({ before: { keyPrefix: before.keyPrefix }, after: { keyPrefix: after.keyPrefix, keyIssuedAt: after.keyIssuedAt } }),
    },
    'revoke-key': {
      privilege: PRIV.serviceAccounts.edit,
      async run(ctx, before) {
        if (before.keyRevokedAt || !before.keyPrefix)
          throw new HttpError(409, fill('serviceAccount.noKeyToRevoke', '{name} has no key to revoke', { name: String(before.name) }));
        const params: unknown[] = [before.id];
        const { rows } = await ctx.tx.query<{ key_id: string | null }>(
          `select key_id from service_accounts where id = $1 and ${tenant(params, ctx.clientId)}`,
          params,
        );
        const revoke: unknown[] = [before.id];
        await ctx.tx.query(`update service_accounts set key_revoked_at = now(), updated_at = now() where id = $1 and ${tenant(revoke, ctx.clientId)}`, revoke);
        await endKeySession(ctx.tx, rows[0]?.key_id ?? null, ctx.username);
        if (rows[0]?.key_id) ended.set(before.id, apiKeySessionJti(rows[0].key_id));
      },
      afterCommit: dropAfterCommit(disconnect),
      audit: (before, after) => ({ before: { keyPrefix: before.keyPrefix, keyRevokedAt: null }, after: { keyRevokedAt: after.keyRevokedAt } }),
    },
  },
});
