// Backups of a PostgreSQL database (DATABASE_URL) with the engine's own tools: a backup is `pg_dump --format=custom`
// of the server's database, streamed by the child process into the backup file (never held in memory), and a
// restore is that archive replayed by pg_restore into the same database in one transaction (psql --single-transaction):
// the database's schema is emptied first in that same transaction, so a backup of an older Gatehouse comes back
// without the tables of newer migrations left beside it, and nothing changes when any statement fails. The tools are
// looked for where Debian and Ubuntu put each major version (/usr/lib/postgresql/<major>/bin, matching the server's
// `server_version_num`) and on the PATH; tools older than the server cannot read it (pg_dump refuses), and the routes
// answer 409 saying what to install.
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import type { Db } from '../db/db';
import type { Sentence } from '../../contract';
import { forward, pipedToFile } from '../streams';
import { HttpError, fill } from '../http/kit';

const run = promisify(execFile);

/** What a custom-format archive (pg_dump --format=custom) starts with. */
export const PGDMP_MAGIC = Buffer.from('PGDMP');

export interface PgTools {
  dump: string;
  restore: string;
  psql: string;
  version: string;
  major: number;
}

/** The server's major version (`show server_version_num`: 150018 → 15; 90624 → 9, as old versions count). */
export async function serverMajor(db: Db): Promise<number> {
  const n = Number((await db.query<{ server_version_num: string }>('show server_version_num')).rows[0].server_version_num);
  return n >= 100000 ? Math.floor(n / 10000) : Math.floor(n / 100) / 100;
}

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Where the tools may be: the server's own major version's directory first, then the PATH, then any newer one's. */
function candidateDirs(major: number): string[] {
  const lib = '/usr/lib/postgresql';
  const versions = existsSync(lib)
    ? readdirSync(lib)
        .filter((v) => /^\d+$/.test(v))
        .map(Number)
        .filter((v) => v > major)
        .sort((a, b) => b - a)
    : [];
  const path = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return [...new Set([join(lib, String(major), 'bin'), ...path, ...versions.map((v) => join(lib, String(v), 'bin'))])];
}

/**
 * The tools that can back this server's database up and restore it, or why there are none: not found, or older than
 * the server (the sentence the routes answer 409 with). `dirs`: where to look instead (the tests' installations).
 */
export async function findPgTools(db: Db, dirs?: string[]): Promise<{ tools: PgTools; problem: null } | { tools: null; problem: Sentence }> {
  const major = await serverMajor(db);
  let older: string | null = null;
  for (const dir of dirs ?? candidateDirs(major)) {
    const [dump, restore, psql] = ['pg_dump', 'pg_restore', 'psql'].map((t) => join(dir, t));
    if (![dump, restore, psql].every(executable)) continue;
    let version: string;
    try {
      version = /\(PostgreSQL\)\s+(\d+(?:\.\d+)?)/.exec((await run(dump, ['--version'])).stdout)?.[1] ?? '';
    } catch {
      continue;
    }
    const found = Number(version.split('.')[0]);
    if (!found) continue;
    if (found >= major) return { tools: { dump, restore, psql, version, major: found }, problem: null };
    older ??= `${dump} is PostgreSQL ${version}`;
  }
  return {
    tools: null,
    problem: older
      ? fill(
          'backup.pgDumpOlder',
          'This server’s database is PostgreSQL {major}, and the only pg_dump here is older ({older}): it cannot back the database up. To take and restore backups here, install PostgreSQL {major}’s client tools (on Debian and Ubuntu: apt install postgresql-client-{major}; elsewhere the same major version’s pg_dump, pg_restore and psql on the PATH) and start Gatehouse again.',
          { major, older },
        )
      : fill(
          'backup.pgToolsMissing',
          'This server’s database is PostgreSQL {major}, and pg_dump, pg_restore and psql were not found (on the PATH or in /usr/lib/postgresql/{major}/bin). To take and restore backups here, install PostgreSQL {major}’s client tools (on Debian and Ubuntu: apt install postgresql-client-{major}; elsewhere the same major version’s pg_dump, pg_restore and psql on the PATH) and start Gatehouse again.',
          { major },
        ),
  };
}

/**
 * How the tools reach the same database as the server: its connection URL (DATABASE_URL) with the database the pool
 * is on (`current_database()`: the server tests' own) and without the password, which goes in PGPASSWORD (not on a
 * command line other users of the machine can read).
 */
export async function connectionOf(db: Db, url: string): Promise<{ dbname: string; env: NodeJS.ProcessEnv }> {
  const name = (await db.query<{ name: string }>('select current_database() as name')).rows[0].name;
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  u.pathname = `/${encodeURIComponent(name)}`;
  return { dbname: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}), PGAPPNAME: 'gatehouse-backup' } };
}

/** A backup tool that did not start or ended badly: its sentence (issue 48), the tool's own words kept as a value. */
export class ToolFailed extends Error {
  constructor(readonly said: Sentence) {
    super(said.message);
  }
}
/** What went wrong, as a sentence when it is a tool's failure (its key), else the error's own words (the database's). */
export const toolProblem = (e: unknown): string | Sentence => (e instanceof ToolFailed ? e.said : (e as Error).message);

/** Waits for a child process; a non-zero exit throws with what it said on stderr (its last 2,000 characters). */
function finished(child: ReturnType<typeof spawn>, tool: string): Promise<void> {
  let said = '';
  child.stderr?.on('data', (c: Buffer) => {
    said = (said + c.toString()).slice(-2000);
  });
  return new Promise((resolve, reject) => {
    child.once('error', (e) => reject(new ToolFailed(fill('backup.toolDidNotStart', '{tool} did not start: {problem}', { tool, problem: e.message }))));
    child.once('close', (code, signal) => {
      if (code === 0) return resolve();
      const how = signal ?? `exit ${code}`;
      reject(
        new ToolFailed(
          said.trim()
            ? fill('backup.toolFailed', '{tool} failed ({how}): {said}', { tool, how, said: said.trim() })
            : fill('backup.toolFailedSilently', '{tool} failed ({how}) and said nothing', { tool, how }),
        ),
      );
    });
  });
}

/** Dumps the database into `file` (custom format, compressed), streamed from pg_dump's output to the file. */
export async function pgDump(tools: PgTools, conn: { dbname: string; env: NodeJS.ProcessEnv }, file: string): Promise<void> {
  const child = spawn(tools.dump, ['--format=custom', '--no-password', `--dbname=${conn.dbname}`], { env: conn.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const done = finished(child, 'pg_dump');
  await Promise.all([pipedToFile(file, 0o600, child.stdout!), done]);
}

/**
 * What an archive holds, read by pg_restore without touching any database: its list of contents must be a Gatehouse
 * database's (tables schema_migrations and clients), and its newest migration is read from schema_migrations' data.
 * Not an archive pg_restore reads, or not Gatehouse's: null.
 */
export async function pgArchiveSchema(tools: PgTools, file: string): Promise<number | null> {
  try {
    const list = (await run(tools.restore, ['--list', file], { maxBuffer: 64 * 1024 * 1024 })).stdout;
    if (!/ TABLE public clients /.test(list) || !/ TABLE DATA public schema_migrations /.test(list)) return null;
    const data = (await run(tools.restore, ['--data-only', '--table=schema_migrations', '--file=-', file], { maxBuffer: 64 * 1024 * 1024 })).stdout;
    const copy = /^COPY public\.schema_migrations \(([^)]*)\) FROM stdin;\n([\s\S]*?)^\\\.$/m.exec(data);
    if (!copy) return null;
    const at = copy[1]
      .split(',')
      .map((c) => c.trim())
      .indexOf('id');
    const ids = copy[2]
      .split('\n')
      .filter(Boolean)
      .map((line) => Number(line.split('\t')[at]))
      .filter(Number.isInteger);
    return ids.length ? Math.max(...ids) : null;
  } catch {
    return null;
  }
}

/**
 * Issue 45: whether pg_restore reads the whole archive: every table's data, each block inflated, to the end. The list
 * and schema_migrations are read from its head, so an archive cut short near its end passed them and was kept, to fail
 * only when restored.
 */
export async function pgArchiveWhole(tools: PgTools, file: string): Promise<boolean> {
  try {
    await run(tools.restore, ['--file=/dev/null', file], { maxBuffer: 1024 * 1024 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Replaces the database's contents by the archive's, in one transaction: the public schema is dropped and made again,
 * then pg_restore's script (--clean --if-exists --no-owner --no-privileges: the objects as the server's own user,
 * no grants to roles this server may not have) runs; any error
 * rolls all of it back (ON_ERROR_STOP), and the database is as it was. Other connections wait on the locks while it
 * runs and see the restored tables once it commits.
 */
export async function pgRestore(tools: PgTools, conn: { dbname: string; env: NodeJS.ProcessEnv }, file: string): Promise<void> {
  const psql = spawn(
    tools.psql,
    ['--no-psqlrc', '--quiet', '--no-password', '--single-transaction', '--set=ON_ERROR_STOP=1', `--dbname=${conn.dbname}`, '--file=-'],
    { env: conn.env, stdio: ['pipe', 'ignore', 'pipe'] },
  );
  const restore = spawn(tools.restore, ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--file=-', file], {
    env: conn.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = Promise.all([finished(restore, 'pg_restore'), finished(psql, 'psql')]);
  psql.stdin!.on('error', () => {
    /* psql stopped early: its exit says why */
  });
  psql.stdin!.write('drop schema if exists public cascade;\ncreate schema public;\n');
  forward(restore.stdout!, psql.stdin!); // psql stopped early: its exit says why
  try {
    await done;
  } catch (e) {
    restore.kill();
    psql.kill();
    throw e;
  }
}

/** The 409 a PostgreSQL server without usable tools answers with. */
export const noTools = (problem: Sentence) => new HttpError(409, problem);
