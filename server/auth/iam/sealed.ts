// Secrets Gatehouse must give back to someone else (an identity provider's client secret), sealed at rest: AES-256-GCM
// under a key derived by HKDF-SHA256 from the installation secret (JWT_SECRET, or the one generated once and kept in
// the database: server/auth/secret.ts), as the edge seals its readers' keys (edge/readerKeys.ts). The stored form is
// `v1.<iv>.<tag>.<data>` (base64url) and names its purpose in the authenticated data, so a sealed value moved to
// another column or row kind does not open. A copy of the table alone gives no secret; changing the installation
// secret leaves the sealed values unreadable (open answers null: the secret must be typed again).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Db } from '../../db/db';
import { jwtSecret } from '../secret';

const VERSION = 'v1';
const INFO = 'gatehouse sealed secrets v1';

async function sealingKey(db: Db): Promise<Buffer> {
  const installation = await jwtSecret(db, process.env.JWT_SECRET || undefined);
  return Buffer.from(hkdfSync('sha256', Buffer.from(installation, 'utf8'), Buffer.from('gatehouse', 'utf8'), INFO, 32));
}

/** The sealed form of `plain` for `purpose` (e.g. `identity_providers.client_secret:12`). */
export async function seal(db: Db, plain: string, purpose: string): Promise<string> {
  const key = await sealingKey(db);
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(purpose, 'utf8'));
  const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return [VERSION, iv.toString('base64url'), c.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

/** The secret, or null when nothing is sealed or it does not open (another installation secret, another purpose, changed). */
export async function open(db: Db, sealed: string | null | undefined, purpose: string): Promise<string | null> {
  if (!sealed) return null;
  const [v, iv, tag, data] = sealed.split('.');
  if (v !== VERSION || !iv || !tag || data === undefined) return null;
  try {
    const d = createDecipheriv('aes-256-gcm', await sealingKey(db), Buffer.from(iv, 'base64url'));
    d.setAAD(Buffer.from(purpose, 'utf8'));
    d.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(data, 'base64url')), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}
