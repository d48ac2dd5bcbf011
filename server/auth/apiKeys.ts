// Service accounts' API keys (issue 11): `gh_<keyId>_<secret>`, made here from crypto randomness. The key id finds
// the account; only sha256(secret) is kept (a random 256-bit secret needs no slow hash) and compared in constant
// time. A key's calls run in one session (jti `apikey:<keyId>`), opened by its first use and listed on the
// service-account sessions screen: once that session is ended, the key is refused until it is rotated.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PATTERN, API_KEY_PREFIX } from '../../contract';
import type { Db } from '../db/db';
import { endOpenSession, keyAccount, openKeySession, touchOpenSession } from '../db/queries/apiKeys';
import type { RequestCache } from './requestCache';

export interface IssuedKey {
  key: string;
  keyId: string;
  hash: string;
  prefix: string;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function newApiKey(): IssuedKey {
  const keyId = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { key: `${API_KEY_PREFIX}${keyId}_${secret}`, keyId, hash: sha256(secret), prefix: `${API_KEY_PREFIX}${keyId}_…` };
}

export const isApiKey = (s: string | undefined | null): s is string => !!s && API_KEY_PATTERN.test(s);
export const apiKeySessionJti = (keyId: string) => `apikey:${keyId}`;

export interface KeyPrincipal {
  userId: number;
  username: string;
  clientId: number;
  jti: string;
}

/**
 * The account a key belongs to, when the key is valid, its account enabled, the key not revoked and its session not
 * ended; its session is opened on first use (with where it came from) and marked seen.
 */
export async function authenticateApiKey(
  db: Db,
  cache: RequestCache | null,
  key: string,
  from: { ip: string; userAgent: string },
): Promise<KeyPrincipal | null> {
  const m = API_KEY_PATTERN.exec(key);
  if (!m) return null;
  const [, keyId, secret] = m;
  const a = await keyAccount(db, keyId);
  const given = Buffer.from(sha256(secret), 'hex');
  const kept = Buffer.from(a?.key_hash ?? '0'.repeat(64), 'hex');
  const same = kept.length === given.length && timingSafeEqual(kept, given);
  if (!a || !same || !a.active || a.key_revoked_at) return null;
  const jti = apiKeySessionJti(keyId);
  const isOpen = async () => (cache ? await cache.sessionOpen(jti, Number(a.user_id)) : await touchOpenSession(db, jti));
  if (!(await isOpen())) {
    // first use (or an ended session, which stays ended: the insert does nothing)
    const made = await openKeySession(db, { jti, userId: a.user_id, ip: from.ip, userAgent: from.userAgent.slice(0, 300), clientId: a.client_id });
    // the session is there already: ended (refused), or opened meanwhile by another first use of the key (issue 47: two
    // at once on PostgreSQL both found none, and the one whose insert lost was answered 401), asked again
    if (!made && !(await isOpen())) return null;
  }
  return { userId: Number(a.user_id), username: a.username, clientId: Number(a.client_id), jti };
}

/** Ends the session of a key that was rotated or revoked (it could not be used any more anyway). */
export async function endKeySession(db: Db, keyId: string | null, by: string): Promise<void> {
  if (!keyId) return;
  await endOpenSession(db, apiKeySessionJti(keyId), by);
}
