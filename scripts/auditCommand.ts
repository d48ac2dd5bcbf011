// `npm run audit`'s commands (scripts/audit.ts is the process around them): importable, so a test runs them in its own
// process against the database it tampered with, as the command line would, without starting a process each time.
import { createPublicKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { format } from 'node:util';
import { dataDirHolder, openPglite, openPostgres, type Db } from '../server/db/db';
import { EXPORT_FORMAT, existingSigningKey, publicKeyPem, verifyAgainstWitness, verifyChains, verifyExport, type ExportHeader } from '../server/audit/chain';

const USAGE = 'usage: npm run audit -- verify [--witness DIR] | verify-export FILE [--key PUBLIC.pem] | public-key';

/** Where the command writes (the process's stdout and stderr; a test's buffer) and the settings it reads. */
export interface AuditIo {
  env: Record<string, string | undefined>;
  log: (...parts: unknown[]) => void;
  error: (...parts: unknown[]) => void;
  write: (text: string) => void;
}
/** The process's own output and environment. */
export const processIo: AuditIo = {
  env: process.env,
  log: (...p) => console.log(...p),
  error: (...p) => console.error(...p),
  write: (t) => process.stdout.write(t),
};
/** Output kept in one string, as a terminal would show it (tests). */
export function bufferIo(env: AuditIo['env']): AuditIo & { text: () => string } {
  let out = '';
  const line = (...p: unknown[]) => {
    out += `${format(...p)}\n`;
  };
  return { env, log: line, error: line, write: (t) => (out += t), text: () => out };
}

class NoDatabase extends Error {}

async function openTheDb(io: AuditIo): Promise<Db> {
  const url = io.env.DATABASE_URL;
  if (url) return openPostgres(url);
  const dir = resolve(io.env.DATA_DIR ?? 'data');
  if (!existsSync(resolve(dir, 'PG_VERSION'))) throw new NoDatabase(`No database in ${dir} (set DATA_DIR or DATABASE_URL)`);
  // issue 45: opening the embedded database a running server holds aborted with a stack (RuntimeError: Aborted())
  const holder = dataDirHolder(dir);
  if (holder !== null)
    throw new NoDatabase(
      `The server (process ${holder}) is using the embedded database in ${dir}: stop it first (an embedded database has one user at a time), or check a copy (a backup restored to another DATA_DIR)`,
    );
  return openPglite(dir);
}

async function withDb(io: AuditIo, fn: (db: Db) => Promise<number>): Promise<number> {
  let db: Db;
  try {
    db = await openTheDb(io);
  } catch (e) {
    if (!(e instanceof NoDatabase)) throw e;
    io.error(e.message);
    return 2;
  }
  try {
    const { rows } = await db.query<{ n: string }>(
      `select count(*)::text as n from information_schema.columns where table_name = 'audit_log' and column_name = 'hash'`,
    );
    if (rows[0]?.n === '0') {
      io.error('This database has no audit chain yet (migration 127): start the server on it once.');
      return 2;
    }
    return await fn(db);
  } finally {
    await db.close();
  }
}

/**
 * The public key in a file: a PEM, or the JSON the public-key route answers by default (`{"publicKey": "-----BEGIN…"}`,
 * what a `curl … > key.pem` saves); a file that is missing or holds no Ed25519 public key is said in words (issue 45).
 */
export function readKeyFile(file: string): { pem: string } | { problem: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { problem: `Cannot read the key file ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (e as Error).message}` };
  }
  let pem = text;
  try {
    const j = JSON.parse(text) as { publicKey?: unknown };
    if (typeof j?.publicKey === 'string') pem = j.publicKey;
  } catch {
    /* not JSON: a PEM */
  }
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ed25519')
      return { problem: `${file} holds a ${key.asymmetricKeyType} key, not the Ed25519 public key the audit heads are signed with` };
    return { pem: key.export({ type: 'spki', format: 'pem' }).toString() };
  } catch {
    return {
      problem: `${file} is not a public key (expected the PEM of GET /event/manage/audit/public-key?format=pem, or npm run audit -- public-key)`,
    };
  }
}

/** Runs one command of `npm run audit` (its arguments after the script's name) and answers its exit code. */
export async function auditCommand(argv: string[], io: AuditIo = processIo): Promise<number> {
  const args = argv.filter((a) => a !== '--');
  const [command, ...rest] = args;
  if (command === 'verify') {
    const at = rest.indexOf('--witness');
    const witness = at >= 0 ? rest[at + 1] : (io.env.AUDIT_WITNESS_DIR ?? undefined);
    if ((at >= 0 && !witness) || rest.some((a, i) => i !== at && i !== at + 1)) {
      io.error(USAGE);
      return 2;
    }
    if (witness && !existsSync(witness)) {
      io.error(`No witness at ${witness}`);
      return 2;
    }
    return withDb(io, async (db) => {
      const key = await existingSigningKey(db, io.env.AUDIT_SIGNING_KEY || undefined);
      const report = await verifyChains(db, key, 'all');
      if (!report.ok) {
        io.log(`FAILED after ${report.records} records checked: ${report.problem!.message}`);
        return 1;
      }
      // issue 45: the database held to every head its witness holds (a chain cut or rewritten together with its heads)
      const w = witness ? await verifyAgainstWitness(db, key, witness) : null;
      if (w && !w.ok) {
        io.log(`FAILED against the witness in ${witness} after ${w.heads} witnessed heads: ${w.problem!.message}`);
        return 1;
      }
      io.log(
        `OK: ${report.records} records checked in ${report.chains} chain${report.chains === 1 ? '' : 's'}${key ? '' : ' (no signing key yet: no head was signed)'}${
          w ? `; ${w.heads} witnessed heads of ${w.chains} chain${w.chains === 1 ? '' : 's'} held` : ''
        }`,
      );
      return 0;
    });
  }
  if (command === 'public-key') {
    return withDb(io, async (db) => {
      const key = await existingSigningKey(db, io.env.AUDIT_SIGNING_KEY || undefined);
      if (!key) {
        io.error('No signing key yet: the server makes one when it first signs a head.');
        return 2;
      }
      io.write(publicKeyPem(key));
      return 0;
    });
  }
  if (command === 'verify-export') {
    const keyAt = rest.indexOf('--key');
    const keyFile = keyAt >= 0 ? rest[keyAt + 1] : undefined;
    const file = rest.find((a, i) => a !== '--key' && i !== keyAt + 1);
    if (!file || (keyAt >= 0 && !keyFile)) {
      io.error(USAGE);
      return 2;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      io.error(`Cannot read ${file}: ${(e as Error).message}`);
      return 2;
    }
    let publicKey: string | null = null;
    if (keyFile) {
      const key = readKeyFile(keyFile);
      if ('problem' in key) {
        io.error(key.problem);
        return 2;
      }
      publicKey = key.pem;
    }
    if (!publicKey) {
      try {
        publicKey = (JSON.parse(text.slice(0, text.indexOf('\n') >>> 0)) as ExportHeader).publicKey;
      } catch {
        /* reported by verifyExport */
      }
      if (publicKey) io.log('(no --key given: checked with the key written in the file itself)');
    }
    if (!publicKey) {
      io.log(`FAILED: ${file} is not a ${EXPORT_FORMAT} file`);
      return 1;
    }
    const report = verifyExport(text, publicKey);
    if (!report.ok) {
      io.log(`FAILED after ${report.records} records checked: ${report.problem!.message}`);
      return 1;
    }
    io.log(`OK: ${report.records} records checked${report.head ? `, up to the head signed ${report.head.signedAt} (seq ${report.head.seq})` : ''}`);
    return 0;
  }
  io.error(USAGE);
  return 2;
}
