// The activity report in plain words (issue 50: its rows said "door 2", "identity 481", `momentary-unlock` and
// usernames). One source for the screen's list, its export and the scheduled report's file: the same headers and cells
// in all three, with the ids and the values before and after kept in the files.
import { auditChangedFields, type AuditEntry } from './schemas';

/** An audit action as an operator says it. Actions not named here are written out from their code. */
export const AUDIT_ACTION_WORDS: Readonly<Record<string, string>> = {
  create: 'Added',
  update: 'Changed',
  delete: 'Deleted',
  remove: 'Removed',
  export: 'Exported',
  import: 'Imported',
  upload: 'Uploaded',
  restore: 'Restored',
  view: 'Viewed',
  list: 'Looked through',
  acknowledge: 'Acknowledged',
  process: 'Processed',
  processed: 'Processed',
  forward: 'Forwarded',
  escalate: 'Escalated',
  shelve: 'Shelved',
  unshelve: 'Ended the shelving',
  unshelved: 'Ended the shelving',
  end: 'Ended',
  lock: 'Locked',
  unlock: 'Unlocked',
  'momentary-unlock': 'Opened briefly',
  lockdown: 'Locked down',
  'lock-door': 'Locked the door',
  'unlock-door': 'Unlocked the door',
  pulse: 'Pulsed',
  'pulse-output': 'Pulsed an output',
  'raise-alarm': 'Raised an alarm',
  arm: 'Armed',
  disarm: 'Disarmed',
  forgive: 'Forgave anti-passback',
  deny: 'Denied',
  approve: 'Approved',
  reject: 'Rejected',
  'reset-password': 'Reset the password',
  'change-password': 'Changed the password',
  // issue 49: not the sign-in step's own 'Set up two-step verification' (a heading; one English key, one translation)
  'enrol-mfa': 'Added a second factor',
  'remove-mfa': 'Removed a second factor',
  'passkey-sign-in': 'Signed in with a passkey',
  'provider-sign-out': 'Signed out by the identity provider',
  'use-recovery-code': 'Signed in with a recovery code',
  'new-recovery-codes': 'Made new recovery codes',
  're-pair': 'Paired the reader again',
  'watchlist-match': 'Matched the watchlist',
  'threat level reverted': 'Threat level reverted',
  'batch-add': 'Added in a batch',
  'batch-update': 'Changed in a batch',
  'batch-import': 'Imported in a batch',
  'batch-preview': 'Previewed a batch',
  build: 'Built',
  run: 'Ran',
};

/** What an audit row is about, as an operator says it ('door', 'alarmShelving', 'session-journal' → 'Alarm shelving'). */
export function auditEntityWords(entity: string): string {
  const words = entity
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : entity;
}

/** An audit action in plain words (a code not in AUDIT_ACTION_WORDS written out: 'card-swap' → 'Card swap'). */
export function auditActionWords(action: string): string {
  return AUDIT_ACTION_WORDS[action] ?? auditEntityWords(action);
}

const NAME_KEYS = ['name', 'fullName', 'title', 'username', 'code'] as const;
/** The name of what a row changed, from its values after (or before, for a deletion); null when it has none. */
export function auditEntityName(r: Pick<AuditEntry, 'before' | 'after'>): string | null {
  for (const v of [r.after, r.before]) {
    if (!v || typeof v !== 'object') continue;
    const o = v as Record<string, unknown>;
    for (const k of NAME_KEYS) if (typeof o[k] === 'string' && o[k]) return o[k] as string;
    const person = [o.firstName, o.lastName].filter((s) => typeof s === 'string' && s).join(' ');
    if (person) return person;
  }
  return null;
}

/** The columns of the activity report's files (the screen's export and the scheduled report), in this order. */
export const ACTIVITY_FILE_COLUMNS = ['When', 'Operator', 'Username', 'Action', 'What', 'Name', 'Id', 'Fields changed', 'Before', 'After'] as const;

const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));
/**
 * A row of the activity report's files, after `When` (which each writer shows in its zone): the operator's name and
 * username, the action and the kind of record in plain words, its name and id, the fields changed, and the values
 * before and after as JSON. `words` translates (the console's tx; the server writes English).
 */
export function activityCells(r: AuditEntry, words: (s: string) => string = (s) => s): string[] {
  return [
    r.actorName ?? r.actor,
    r.actor,
    words(auditActionWords(r.action)),
    words(auditEntityWords(r.entity)),
    r.entityName ?? auditEntityName(r) ?? '',
    r.entityId ?? '',
    auditChangedFields(r).join(', '),
    json(r.before),
    json(r.after),
  ];
}
