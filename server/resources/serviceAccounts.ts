// Service accounts on the server, beyond the declaration: each is backed by a user of kind 'service' (no password,
// never a console sign-in) holding the account's role in its client, so its key works with exactly those privileges
// (migration 050 keeps the user's name and grant in step with edits). Create and rotate-key answer the new key once;
// revoke-key stops it. Both end the old key's session and are audited without the key.
import { PRIV } from '../../contract';
import { apiKeySessionJti, endKeySession, newApiKey } from '../auth/apiKeys';
import { serviceAccountUsers } from '../auth/accountScope';
import type { CrudContext, ResourceHooks } from '../crud/hooks';
import { HttpError, fill } from '../http/kit';
import {
  grantServiceAccountRole,
  insertServiceUser,
  issueServiceAccountKey,
  revokeServiceAccountKey,
  serviceAccountKeyId,
} from '../db/queries/serviceAccounts';

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
    const userId = await insertServiceUser(ctx.tx, `sa-${key.keyId.slice(0, 6)}-${slug(String(input.name))}`, input.name, ctx.clientId);
    reveal(ctx, key.key);
    return { user_id: userId, key_id: key.keyId, key_hash: key.hash, key_prefix: key.prefix, key_issued_at: new Date() };
  },
  async afterInsert(ctx, row) {
    await grantServiceAccountRole(ctx.tx, row.id);
  },
  actions: {
    'rotate-key': {
      privilege: PRIV.serviceAccounts.edit,
      async run(ctx, before) {
        const key = newApiKey();
        const was = await serviceAccountKeyId(ctx.tx, ctx.clientId, before.id);
        await issueServiceAccountKey(ctx.tx, ctx.clientId, before.id, key);
        await endKeySession(ctx.tx, was, ctx.username);
        if (was) ended.set(before.id, apiKeySessionJti(was));
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
        const was = await serviceAccountKeyId(ctx.tx, ctx.clientId, before.id);
        await revokeServiceAccountKey(ctx.tx, ctx.clientId, before.id);
        await endKeySession(ctx.tx, was, ctx.username);
        if (was) ended.set(before.id, apiKeySessionJti(was));
      },
      afterCommit: dropAfterCommit(disconnect),
      audit: (before, after) => ({ before: { keyPrefix: before.keyPrefix, keyRevokedAt: null }, after: { keyRevokedAt: after.keyRevokedAt } }),
    },
  },
});
