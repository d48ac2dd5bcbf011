// Backup and restore [0.7.2.0] and auto-backup settings [0.7.2.1] (§2 Server): platform privileges (a backup holds every
// client's data). A backup is the embedded database's data directory as one gzip tar image (PGlite), kept as a file
// beside the data directory; restoring one replaces the whole database and restarts the server's services in the
// same process: every console reconnects and everyone signs in again. The database as it was just before is kept
// as a backup of its own ("before restore"), so a restore can be undone. On PostgreSQL a backup is the database's own
// dump (pg_dump, custom format) restored with pg_restore, when the server has those tools (else the routes answer 409
// saying what to install); each backup says which engine it is of (`engine`): one is never restored on the other.
import { array, boolean, enums, integer, nullable, type, string, type Infer } from './structs';
import { MessageKeyed, keyedAs, type Sentence } from './messages';

const keyedProblem = keyedAs('problem');
const keyedReason = keyedAs('reason');
import { AuditEntry } from './schemas';
import { RESOURCE_INDEX } from './resources/catalogueIndex';

export const BACKUP_KINDS = [
  { value: 'manual', label: 'Taken by hand' },
  { value: 'auto', label: 'Automatic' },
  { value: 'before-restore', label: 'Before a restore' },
  { value: 'uploaded', label: 'Uploaded' },
] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number]['value'];

/** What a backup is of: the embedded database's data directory (a .tar.gz), or a PostgreSQL database's pg_dump (.dump). */
export const BACKUP_ENGINES = ['pglite', 'postgres'] as const;
export type BackupEngine = (typeof BACKUP_ENGINES)[number];

/** A backup's id: when it was taken (UTC, to the second) and six random letters. Anything else is not a backup (404). */
export const BACKUP_ID = /^\d{8}T\d{6}Z-[a-z0-9]{6}$/;
/** When a backup was taken, from its id (UTC, to the second): '20261127T101500Z-abc123' → '2026-11-27T10:15:00Z'. */
export function backupTakenAt(id: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-/.exec(id);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : null;
}

/** The largest backup file an upload may bring. */
export const BACKUP_UPLOAD_MAX_BYTES = 1024 * 1024 * 1024;

export const BackupInfo = type({
  id: string(),
  takenAt: string(),
  kind: enums(BACKUP_KINDS.map((k) => k.value)),
  /** who took it (null: the server, on its schedule) */
  takenBy: nullable(string()),
  /** the file's size in bytes */
  bytes: integer(),
  /** the newest migration of the database it holds (a restore brings an older one up to date) */
  schemaVersion: integer(),
  /** the engine it is a backup of (and restores on) */
  engine: enums(BACKUP_ENGINES),
});
export type BackupInfo = Infer<typeof BackupInfo>;

/**
 * The last restore this installation did, as its server recorded it: which backup, when and by whom, and whether
 * the server came back with it (`restored`), or put the database back as it was because the image did not open
 * (`problem` says why). `restored` null: the server stopped before the restore ended (it puts the database back as
 * it was when it starts again).
 */
export const RestoreOutcome = type({
  backupId: string(),
  at: string(),
  by: nullable(string()),
  restored: nullable(boolean()),
  problem: nullable(string()),
  /** issue 48: the problem as a sentence (its key and values), which the console says in the operator's language */
  ...keyedProblem.schema,
});
export type RestoreOutcome = Infer<typeof RestoreOutcome>;
/** A restore's end as it is recorded: whether it restored, and its problem with its key beside its English. */
export const restoreSettled = (restored: boolean, problem: Sentence | null): Pick<RestoreOutcome, 'restored' | 'problem' | 'problemCode' | 'problemValues'> =>
  problem ? { restored, ...keyedProblem.said(problem) } : { restored, problem: null };
/** Why the last restore did not happen: its sentence when the server said it with its key, else its English (none: null). */
export const restoreProblem = (o: Pick<RestoreOutcome, 'problem' | 'problemCode' | 'problemValues'>): string | Sentence | null => keyedProblem.of(o);

export const BackupList = type({
  /** false where this server cannot take them: `reason` says why (on PostgreSQL without pg_dump: what to install) */
  available: boolean(),
  /** the engine this server keeps its data in: what its backups are of */
  engine: enums(BACKUP_ENGINES),
  reason: nullable(string()),
  /** issue 48: the reason as a sentence (its key and values), which the console says in the operator's language */
  ...keyedReason.schema,
  items: array(BackupInfo),
  /** the last restore, if there was one */
  lastRestore: nullable(RestoreOutcome),
});
export type BackupList = Infer<typeof BackupList>;
/** Why backups cannot be taken here: its sentence when the server said it with its key (issue 48), else its English. */
export const backupReason = (l: Pick<BackupList, 'reason' | 'reasonCode' | 'reasonValues'>): string | Sentence => keyedReason.of(l) ?? '';
/** Why backups cannot be taken here, as the list carries it: its key and values beside its English. */
export const saidAsReason = keyedReason.said;

/** What a restore answers before the server restarts with the backup. */
export const RestoreStarted = type({ restoring: boolean(), backupId: string(), before: string(), message: string(), ...MessageKeyed });
export type RestoreStarted = Infer<typeof RestoreStarted>;

/** How many records the backup screen's history shows (the newest). */
export const PLATFORM_HISTORY_SIZE = 50;
/** What the backup screen's history is about: the backups, and the auto-backup settings (audited as the catalogue names them). */
export const PLATFORM_HISTORY_ENTITIES = ['backup', RESOURCE_INDEX.autoBackup.label.one.toLowerCase()];
/** The backups' history, newest first (API.platformHistory): audit rows of no client about PLATFORM_HISTORY_ENTITIES. */
export const PlatformHistory = type({ items: array(AuditEntry) });
export type PlatformHistory = Infer<typeof PlatformHistory>;

/** The name a backup's file is saved under (the server's content-disposition and the console's download). */
export const backupFileName = (id: string, engine: BackupEngine = 'pglite') => `gatehouse-backup-${id}.${engine === 'postgres' ? 'dump' : 'tar.gz'}`;
