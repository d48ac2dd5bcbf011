// The write-ahead log's place, for a database image many servers start from (the server tests' seeded image,
// server/testkit.ts).
import type { Db } from '../db';

/**
 * Moves the log on to a segment of its own and removes the old one, as a checkpoint after a switch does without
 * recycling: a PostgreSQL that starts on a log past three quarters of its 16 MB segment makes the next segment at once
 * (16 MB of zeros), and one that starts at the beginning of a segment does not. The data is the same.
 */
export async function switchToFreshWalSegment(db: Db): Promise<void> {
  await db.exec('set wal_recycle = off; select pg_switch_wal(); checkpoint;');
}
