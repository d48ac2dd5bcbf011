// The one-time tickets a provider's sign-in hands the console (server/auth/iam/flow.ts; issue 48: in the queries room).
import type { Db } from '../db';

/** Keeps ticket hash `t.ticketHash` (its account, provider, browser binding, ID token, return path, method) until `t.expiresAt`; the expired ones go. */
export async function keepIamTicket(
  db: Db,
  t: {
    ticketHash: string;
    userId: number;
    provider: string;
    bindingHash: string;
    idToken: string | null;
    returnPath: string | null;
    expiresAt: Date;
    method: 'oidc' | 'saml';
    samlSubject: string | null;
  },
): Promise<void> {
  await db.query('delete from iam_tickets where expires_at < now()');
  await db.query(
    `insert into iam_tickets (ticket_hash, user_id, provider, binding_hash, id_token, return_path, expires_at, method, saml_subject)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [t.ticketHash, t.userId, t.provider, t.bindingHash, t.idToken, t.returnPath, t.expiresAt, t.method, t.samlSubject],
  );
}

export interface IamTicketRow {
  user_id: number;
  provider: string;
  binding_hash: string;
  id_token: string | null;
  return_path: string | null;
  method: 'oidc' | 'saml';
  saml_subject: string | null;
}

/** Takes the live, unused ticket of that hash once (server/auth/iam/routes.ts, the exchange); undefined otherwise. */
export async function takeIamTicket(db: Db, ticketHash: string): Promise<IamTicketRow | undefined> {
  const { rows } = await db.query<IamTicketRow>(
    `update iam_tickets set used_at = now() where ticket_hash = $1 and used_at is null and expires_at > now()
        returning user_id, provider, binding_hash, id_token, return_path, method, saml_subject`,
    [ticketHash],
  );
  return rows[0];
}
