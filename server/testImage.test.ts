// The run's seeded image (server/testkit.ts writes it, server/testImage.ts reads it): every test server on PGlite opens
// it, about 115 times a run, so what an open costs counts. Run by the PGlite step only (scripts/test.mjs PGLITE_ONLY).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openPglite } from './db/db';
import { writeSeededPgliteImage } from './testkit';
import { seededImage, seededImageFs } from './testImage';

describe("the server tests' seeded image", () => {
  it('opens as the seeded database, its bytes left as they were, with its log early in its one segment (no next segment written)', async () => {
    // the run's image; on PostgreSQL (DATABASE_URL, where CI leaves this file out) one made here as the global setup does
    const own = process.env.GATEHOUSE_TEST_PGLITE_IMAGE ? null : await writeSeededPgliteImage();
    const image = seededImage(own?.file ?? process.env.GATEHOUSE_TEST_PGLITE_IMAGE!);
    // every open in a fork reads the same bytes (server/testImage.ts): an open must leave them as they were
    const digest = async () =>
      createHash('sha256')
        .update(new Uint8Array(await image.arrayBuffer()))
        .digest('hex');
    const before = await digest();
    const db = await openPglite('memory://', image);
    try {
      expect(await digest(), 'the image bytes after an open').toBe(before);
      // PostgreSQL makes the next 16 MB segment as it starts when its log is past three quarters of the current one
      const { rows } = await db.query<{ offset: number; segments: number; identities: number }>(
        `select (pg_walfile_name_offset(pg_current_wal_lsn())).file_offset as offset,
          (select count(*)::int from pg_ls_waldir() where name ~ '^[0-9A-F]{24}$') as segments,
          (select count(*)::int from identities) as identities`,
      );
      expect(rows[0].segments).toBe(1);
      expect(rows[0].offset).toBeLessThan(0.75 * 16 * 1024 * 1024);
      expect(rows[0].identities).toBeGreaterThan(0);
    } finally {
      await db.close();
      own?.remove();
    }
  });

  it("as the test servers open it (its files shared until written): one server's writes reach neither the image nor the next server's database", async () => {
    const own = process.env.GATEHOUSE_TEST_PGLITE_IMAGE ? null : await writeSeededPgliteImage();
    const file = own?.file ?? process.env.GATEHOUSE_TEST_PGLITE_IMAGE!;
    const digest = async () =>
      createHash('sha256')
        .update(new Uint8Array(await seededImage(file).arrayBuffer()))
        .digest('hex');
    const before = await digest();
    const names = (db: Awaited<ReturnType<typeof openPglite>>) =>
      db.query<{ n: number }>(`select count(*)::int as n from identities where first_name like '%-written'`);
    try {
      const first = await openPglite('memory://', seededImageFs(file));
      try {
        // written through the log and, checkpointed, into the tables' own files
        await first.query(`update identities set first_name = first_name || '-written'`);
        await first.query('checkpoint');
        expect((await names(first)).rows[0].n).toBeGreaterThan(0);
      } finally {
        await first.close();
      }
      expect(await digest(), 'the image bytes after a server wrote').toBe(before);
      const second = await openPglite('memory://', seededImageFs(file));
      try {
        expect((await names(second)).rows[0].n).toBe(0);
      } finally {
        await second.close();
      }
    } finally {
      own?.remove();
    }
  });
});
