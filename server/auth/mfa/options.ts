// What the multi-factor routes are given and who asks them (issue 49), apart from the routes so that the passkey
// routes and the TOTP routes both use them without importing each other.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/db';
import type { SignInMethod } from '../../db/queries/sessions';
import type { UserRow } from '../../db/queries/users';
import type { PolicyDefaults } from '../policy';

export interface MfaOptions {
  db: Db;
  defaults: PolicyDefaults;
  /** The server's one session check (server/app.ts). */
  openSession: (token: string) => Promise<{ sub: string; jti: string } | null>;
  /** A new session in the LoginResponse shape (server/http/auth.ts). */
  sessionBody: (u: UserRow, req: FastifyRequest, lifetimeS: number, method: SignInMethod) => Promise<object>;
  /** The sign-in routes' rate limit (route config), applied to the second step too. */
  limited: Record<string, unknown>;
  now?: () => number;
}

/** Who asks: the signed-in session (bearer), or the ticket of a sign-in that must enrol; `binding` ties an enrolment to it. */
export interface Asker {
  userId: number;
  jti: string | null;
  ticket: string | null;
  binding: string;
}
