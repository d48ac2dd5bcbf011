// Auto-backup settings [0.7.2.1] (§2 Server "backup and restore with auto-backup settings"): the catalogue's one
// platform singleton (contract/backups.ts says what a backup is; server/backup/ takes and restores them).
import { API } from '../api';
import { PRIV } from '../privileges';
import { choice, defineResource, number, switchField } from './define';
import { WEEKDAYS } from './schedules';

export const AUTO_BACKUP_FREQUENCIES = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
] as const;

/**
 * Auto-backup settings [0.7.2.1]: one row for the whole installation (scope platform). The server looks each minute
 * and takes a backup at the hour (UTC: the installation has no one client's zone) when none was taken automatically
 * in the last 23 hours; it keeps the newest `keep` automatic ones (those taken by hand, uploaded or before a restore
 * stay until deleted).
 */
export const autoBackupResource = defineResource({
  name: 'autoBackup',
  table: 'auto_backup_settings',
  api: API.autoBackup,
  route: '/server/backup-restore/auto-backup',
  section: 'server',
  label: { one: 'Auto-backup settings', many: 'Auto-backup settings' },
  icon: 'archive',
  privileges: { view: PRIV.autoBackup, edit: PRIV.autoBackup },
  scope: { tenant: 'platform' },
  singleton: true,
  timestamps: true,
  fields: {
    enabled: switchField({ label: 'Back up automatically', default: false, wide: true, help: 'The whole installation, every client, on the schedule below.' }),
    frequency: choice(AUTO_BACKUP_FREQUENCIES, { required: true, default: 'daily' }),
    weekday: choice(WEEKDAYS, {
      label: 'On (weekly)',
      required: true,
      default: '0',
      help: 'The day a weekly backup is taken',
      shownWhen: { field: 'frequency', values: ['weekly'] },
    }),
    hour: number({ label: 'At (hour, UTC)', min: 0, max: 23, required: true, default: 2, help: 'From 0 to 23, in UTC' }),
    keep: number({ label: 'Automatic backups kept', min: 1, max: 100, required: true, default: 7, help: 'From 1 to 100: older automatic backups are deleted' }),
  },
  list: { title: ['hour'], columns: [], sort: ['hour', 'asc'] },
  form: [
    {
      title: 'Auto-backup',
      description: 'When the server backs the whole installation up by itself, and how many of those backups it keeps.',
      fields: ['enabled', 'frequency', 'weekday', 'hour', 'keep'],
    },
  ],
  screens: { listTitle: 'Auto-backup settings' },
});
