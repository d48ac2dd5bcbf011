// Failed sign-ins of usernames that have no account (issue 13): counted and locked exactly like a real user's,
// so the answers (401, then 423 for the lock's duration) say nothing about which usernames exist.
import type { Db } from '../db';

export async function unknownLockedUntil(db: Db, username: string): Promise<Date | null> {
  const { rows } = await db.query<{ locked_until: Date | string | null }>('select locked_until from sign_in_failures where username = $1', [username]);
  return rows[0]?.locked_until ? new Date(rows[0].locked_until) : null;
}

/** One more failure of an unknown username; locks it for `minutes` when it reaches `attempts` (the counter restarts). */
export async function recordUnknownFailure(db: Db, username: string, attempts: number, minutes: number): Promise<void> {
  await db.query(
    `insert into sign_in_failures as f (username, failed_attempts, locked_until, updated_at)
      values ($1, case when $2::int <= 1 then 0 else 1 end, case when $2::int <= 1 then now() + $3::int * interval '1 minute' end, now())
    on conflict (username) do update set
      failed_attempts = case when f.failed_attempts + 1 >= $2::int then 0 else f.failed_attempts + 1 end,
      locked_until = case when f.failed_attempts + 1 >= $2::int then now() + $3::int * interval '1 minute' else f.locked_until end,
      updated_at = now()`,
    [username, attempts, minutes],
  );
  // rows of names nobody tried for a day are forgotten, so guessing cannot grow the table without bound
  await db.query(`delete from sign_in_failures where updated_at < now() - interval '1 day' and (locked_until is null or locked_until < now())`);
}
