// `npm run audit -- verify`: walks every audit chain in the database the server uses (DATABASE_URL, else the
// embedded database in DATA_DIR, default ./data; stop the server first, an embedded database has one user at a time),
// prints the number of records checked and exits 0, or names the first record whose content, order or link is wrong
// and exits 1. The signed heads are checked with the key the server signs with (AUDIT_SIGNING_KEY or the kept one).
// `npm run audit -- verify-export FILE [--key PUBLIC.pem]`: checks an activity report export offline, with the
// public key alone (GET /event/manage/audit/public-key, or `npm run audit -- public-key`); without --key, the key
// written in the file is used, which proves the file is whole but not who signed it.
// `npm run audit -- public-key`: prints the public key the heads are signed with.
// Exit codes: 0 verified, 1 a problem found, 2 wrong usage or no database.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openPglite, openPostgres, type Db } from '../server/db/db';
import { EXPORT_FORMAT, existingSigningKey, publicKeyPem, verifyChains, verifyExport, type ExportHeader } from '../server/audit/chain';

const USAGE = 'usage: npm run audit -- verify | verify-export FILE [--key PUBLIC.pem] | public-key';

async function openTheDb(): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (url) return openPostgres(url);
  const dir = resolve(process.env.DATA_DIR ?? 'data');
  if (!existsSync(resolve(dir, 'PG_VERSION'))) {
    console.error(`No database in ${dir} (set DATA_DIR or DATABASE_URL)`);
    process.exit(2);
  }
  return openPglite(dir);
}

async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openTheDb();
  try {
    const { rows } = await db.query<{ n: string }>(
      `select count(*)::text as n from information_schema.columns where table_name = 'audit_log' and column_name = 'hash'`,
    );
    if (rows[0]?.n === '0') {
      console.error('This database has no audit chain yet (migration 127): start the server on it once.');
      process.exit(2);
    }
    return await fn(db);
  } finally {
    await db.close();
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  const [command, ...rest] = args;
  if (command === 'verify') {
    return withDb(async (db) => {
      const key = await existingSigningKey(db, process.env.AUDIT_SIGNING_KEY || undefined);
      const report = await verifyChains(db, key, 'all');
      if (!report.ok) {
        console.log(`FAILED after ${report.records} records checked: ${report.problem!.message}`);
        return 1;
      }
      console.log(
        `OK: ${report.records} records checked in ${report.chains} chain${report.chains === 1 ? '' : 's'}${key ? '' : ' (no signing key yet: no head was signed)'}`,
      );
      return 0;
    });
  }
  if (command === 'public-key') {
    return withDb(async (db) => {
      const key = await existingSigningKey(db, process.env.AUDIT_SIGNING_KEY || undefined);
      if (!key) {
        console.error('No signing key yet: the server makes one when it first signs a head.');
        return 2;
      }
      process.stdout.write(publicKeyPem(key));
      return 0;
    });
  }
  if (command === 'verify-export') {
    const keyAt = rest.indexOf('--key');
    const keyFile = keyAt >= 0 ? rest[keyAt + 1] : undefined;
    const file = rest.find((a, i) => a !== '--key' && i !== keyAt + 1);
    if (!file || (keyAt >= 0 && !keyFile)) {
      console.error(USAGE);
      return 2;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      console.error(`Cannot read ${file}: ${(e as Error).message}`);
      return 2;
    }
    let publicKey = keyFile ? readFileSync(keyFile, 'utf8') : null;
    if (!publicKey) {
      try {
        publicKey = (JSON.parse(text.slice(0, text.indexOf('\n') >>> 0)) as ExportHeader).publicKey;
      } catch {
        /* reported by verifyExport */
      }
      if (publicKey) console.log('(no --key given: checked with the key written in the file itself)');
    }
    if (!publicKey) {
      console.log(`FAILED: ${file} is not a ${EXPORT_FORMAT} file`);
      return 1;
    }
    const report = verifyExport(text, publicKey);
    if (!report.ok) {
      console.log(`FAILED after ${report.records} records checked: ${report.problem!.message}`);
      return 1;
    }
    console.log(`OK: ${report.records} records checked${report.head ? `, up to the head signed ${report.head.signedAt} (seq ${report.head.seq})` : ''}`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
