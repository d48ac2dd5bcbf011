// A backup's id says when it was taken (contract/backups.ts): the console shows that time for a backup it has not
// listed yet (the one a restore takes first).
import { describe, expect, it } from 'vitest';
import { BACKUP_ID, backupTakenAt } from './backups';

describe('backupTakenAt', () => {
  it('reads the UTC time from a backup id, and nothing from anything else', () => {
    expect(BACKUP_ID.test('20261127T101500Z-abc123')).toBe(true);
    expect(backupTakenAt('20261127T101500Z-abc123')).toBe('2026-11-27T10:15:00Z');
    expect(new Date(backupTakenAt('20261231T235959Z-zz9900')!).toISOString()).toBe('2026-12-31T23:59:59.000Z');
    for (const bad of ['', 'latest', '2026-11-27T10:15:00Z', '20261127T1015Z-abc123', '../20261127T101500Z-abc123']) expect(backupTakenAt(bad)).toBeNull();
  });
});
