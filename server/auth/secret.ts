// The JWT signing key: JWT_SECRET when given, else one generated on first start and kept in the database,
// so a restart (or a second server on the same database) keeps everyone signed in.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db';
import { keepSecret, secret } from '../db/queries/accounts';

export async function jwtSecret(db: Db, given?: string): Promise<string> {
  if (given) return given;
  return (await secret(db, 'jwt')) ?? keepSecret(db, 'jwt', randomBytes(32).toString('base64url'));
}
