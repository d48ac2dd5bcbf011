// /server/backup-restore [0.7.2.0] (§2 Server, a platform privilege): the installation's backups, newest first, each
// with when it was taken (in the user's zone), how, by whom and its size; Back up now, Download, Delete, Restore (after
// saying plainly what a restore does to every client), and a backup file brought from elsewhere. While the server
// restarts with a restored backup the page says so (machines/restore.ts) until the server says how it went: restored
// (every console session ends with it, this one too: the console asks for a sign-in), or not, with why (the database
// is as it was). The last restore stays said above the list, and the installation's history below it. The page says
// which engine the backups are of and what they hold: the embedded database's image (.tar.gz), or on PostgreSQL its
// pg_dump archive (.dump), restored in place; a PostgreSQL server without those tools says what to install instead.
// Auto-backup settings [0.7.2.1] are the catalogue's form.
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Button, Callout, FileInput, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import {
  BACKUP_KINDS,
  auditChangedFields,
  backupReason,
  restoreProblem,
  backupTakenAt,
  hasPrivilege,
  PRIV,
  type AuditEntry,
  type BackupInfo,
  type BackupList,
  type PlatformHistory,
  type RestoreOutcome,
  type RestoreStarted,
} from '../../../contract';
import { selectCommandError, selectRunningCommand } from '../../../machines/command';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { selectRestoreLate, selectRestoring, type RestoreEnding } from '../../../machines/restore';
import type { ServerFile } from '../../hooks/answers';
import { useReading } from '../../hooks/useReading';
import { useRouteInfo } from '../../app/RouteContext';
import { useSystemActor } from '../../hooks/useSystemActor';
import { useViewActor } from '../../hooks/useViewActor';
import { routeDescription, routeTitle, say, tx, useLocale } from '../../i18n';
import { notify } from '../../hooks/console';
import { PageHeader } from '../../ui/PageHeader';
import { fileSize } from '../../ui/fileSize';
import { saveFile } from '../../ui/saveFile';
import { useTime } from '../../ui/time';
import { TableScroll } from '../../ui/TableScroll';
import './backupRestore.css';

const KIND_INTENT: Record<BackupInfo['kind'], 'none' | 'primary' | 'warning' | 'success'> = {
  manual: 'primary',
  auto: 'none',
  'before-restore': 'warning',
  uploaded: 'success',
};
const kindLabel = (k: BackupInfo['kind']) => tx(BACKUP_KINDS.find((x) => x.value === k)?.label ?? k);

export function BackupRestoreScreen() {
  const { route } = useRouteInfo();
  useLocale();
  const time = useTime();
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const mayAutoBackup = hasPrivilege(held, [PRIV.autoBackup]);
  const list = useReading<BackupList>('backupsReading');
  const history = useReading<PlatformHistory>('platformHistoryReading');
  const commands = useViewActor('backupCommands');
  const running = useSelector(commands, selectRunningCommand);
  const failed = useSelector(commands, selectCommandError);
  const [confirm, setConfirm] = useState<{ verb: 'restore' | 'delete'; backup: BackupInfo } | null>(null); // visual: the question open
  const restore = useViewActor('restoreLogic');
  const restoring = useSelector(restore, selectRestoring);
  const late = useSelector(restore, selectRestoreLate);
  const [file, setFile] = useState<File | null>(null); // visual: the file chosen (sent to the restore actor on Restore)
  const items = list.output?.items ?? [];
  const when = (id: string) => {
    const b = items.find((x) => x.id === id);
    return b ? time.dateTime(b.takenAt, true) : id;
  };
  const whenRef = useRef(when); // latest: the backups' times, for the answers' subscription made once
  whenRef.current = when;
  const reloadList = list.reload;
  const reloadHistory = history.reload;
  const reload = useCallback(() => {
    reloadList();
    reloadHistory();
  }, [reloadList, reloadHistory]);

  useEffect(() => {
    const sub = commands.on('command.done', ({ command, result }) => {
      const [verb, id = ''] = command.split('|');
      if (verb === 'download') {
        saveFile(result as ServerFile);
        return;
      }
      if (verb === 'restore') {
        restore.send({ type: 'restore.started', started: result as RestoreStarted });
        return;
      }
      if (verb === 'take')
        notify({
          intent: 'success',
          title: tx('Backup taken'),
          message: tx('{size}, listed first below.', { size: fileSize((result as BackupInfo).bytes) }),
          timeoutMs: 4000,
        });
      if (verb === 'upload') {
        setFile(null);
        notify({
          intent: 'success',
          title: tx('Backup file uploaded'),
          message: tx('It is listed below as uploaded: restore it from its row.'),
          timeoutMs: 5000,
        });
      }
      if (verb === 'delete') notify({ intent: 'success', title: tx('Backup deleted'), message: whenRef.current(id), timeoutMs: 3000 });
      reload();
    });
    return () => sub.unsubscribe();
  }, [commands, restore, reload]);
  useEffect(() => {
    if (failed) notify({ intent: 'danger', title: tx('It did not work'), message: say(failed), timeoutMs: 6000 });
  }, [failed]);

  // a restore under way (machines/restore.ts): the server stops and comes back; the machine asks how it went
  useEffect(() => {
    const sub = restore.on('restore.settled', ({ ending }: { ending: RestoreEnding }) => {
      if (ending.kind === 'restored')
        notify({ intent: 'success', title: tx('Restored'), message: tx('The server is running again with the backup.'), timeoutMs: 6000 });
      else notify({ intent: 'danger', title: tx('Not restored'), message: tx(ending.problem), timeoutMs: 0 });
      reload();
    });
    return () => sub.unsubscribe();
  }, [restore, reload]);

  const run = (command: string, input?: unknown) => commands.send({ type: 'command.run', command, input });
  const available = list.output?.available !== false;
  const postgres = list.output?.engine === 'postgres';

  if (restoring) {
    return (
      <div className="gh-page" data-testid="backup-restoring">
        <NonIdealState
          icon={<Spinner />}
          title={tx('Restoring the backup of {when}', { when: when(restoring.backupId) })}
          description={
            <>
              <p>
                {postgres
                  ? tx('The database is being replaced by the backup. When it is done, everyone signs in again.')
                  : tx('The server restarts with the backup. Every console reconnects in a moment, and everyone signs in again.')}
              </p>
              <p className="bp6-text-muted">
                {tx('The database as it was is kept as the backup of {when}.', { when: time.dateTime(backupTakenAt(restoring.before) ?? new Date(), true) })}
              </p>
              {late && (
                <Callout intent="warning" icon="time" data-testid="backup-restore-late">
                  {tx('The server has not come back yet. It may still be opening a large backup; if it stays away, look at the server’s log.')}
                </Callout>
              )}
            </>
          }
        />
      </div>
    );
  }

  return (
    <div className="gh-page" data-testid="backup-restore">
      <PageHeader
        title={routeTitle(route)}
        icon="archive"
        description={routeDescription(route)}
        actions={
          <>
            {mayAutoBackup && (
              <Link to="/server/backup-restore/auto-backup" className="bp6-button bp6-minimal" data-testid="backup-auto-link">
                {tx('Auto-backup settings')}
              </Link>
            )}
            <Button icon="refresh" variant="outlined" loading={list.busy} onClick={reload}>
              {tx('Refresh')}
            </Button>
            {available && (
              <Button
                icon="archive"
                intent="primary"
                loading={running === 'take'}
                disabled={running !== null}
                onClick={() => run('take')}
                data-testid="backup-take"
              >
                {tx('Back up now')}
              </Button>
            )}
          </>
        }
      />
      {list.failed && (
        <Callout intent="danger" icon="error">
          {say(list.error ?? '')}
        </Callout>
      )}
      {list.output && !available && (
        <Callout intent="warning" icon="database" title={tx('Backups cannot be taken here')} data-testid="backup-unavailable">
          {say(backupReason(list.output))}
        </Callout>
      )}
      {available && list.output?.lastRestore && <LastRestore outcome={list.output.lastRestore} when={when} />}
      {available && (
        <Callout icon="info-sign" className="gh-mb" data-testid="backup-about" data-engine={list.output?.engine}>
          {postgres ? (
            tx(
              'A backup here is PostgreSQL’s own dump of the whole database (pg_dump, a .dump file): every client’s data, the installation’s settings and users, the audit records, and the files kept in the database (photos, floor plans, firmware images, report files). Restoring one (pg_restore) replaces the database in place: what changed since is lost, and everyone signs in again. The database as it is then is backed up first.',
            )
          ) : (
            <>
              {tx(
                'A backup here is an image of the embedded database (a .tar.gz file): every client’s data, the installation’s settings and users, the audit records, and the files kept in the database (photos, floor plans, firmware images, report files).',
              )}{' '}
              {tx(
                'A backup holds every client’s data. Restoring one puts every client back to that moment: what changed since is lost, the server restarts and everyone signs in again. The database as it is then is backed up first.',
              )}
            </>
          )}
        </Callout>
      )}
      {available && (
        <div className="gh-backup__upload">
          <FileInput
            text={file?.name ?? (postgres ? tx('A backup file (.dump) from elsewhere…') : tx('A backup file (.tar.gz) from elsewhere…'))}
            buttonText={tx('Browse')}
            hasSelection={!!file}
            inputProps={
              { accept: postgres ? '.dump' : '.gz,.tar.gz,application/gzip', 'aria-label': tx('Backup file') } as React.InputHTMLAttributes<HTMLInputElement>
            }
            onInputChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
            data-testid="backup-file"
          />
          <Button
            icon="upload"
            disabled={!file || running !== null}
            loading={running === 'upload'}
            onClick={() => file && run('upload', file)}
            data-testid="backup-upload"
          >
            {tx('Upload')}
          </Button>
        </div>
      )}
      {list.busy && !list.output && <NonIdealState icon={<Spinner />} title={tx('Loading backups…')} />}
      {available && list.output && items.length === 0 && (
        <NonIdealState icon="archive" title={tx('No backups yet')} description={tx('Take one now, or switch automatic backups on.')} />
      )}
      {items.length > 0 && (
        <TableScroll label={tx('Backups')}>
          <HTMLTable compact striped className="gh-table-full gh-backups" data-testid="backups">
            <thead>
              <tr>
                <th>
                  {tx('Taken')} ({time.zoneName()})
                </th>
                <th>{tx('How')}</th>
                <th>{tx('By')}</th>
                <th>{tx('Size')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {items.map((b) => (
                <tr key={b.id} data-testid="backup-row" data-id={b.id}>
                  <td>{time.dateTime(b.takenAt)}</td>
                  <td>
                    <Tag minimal round intent={KIND_INTENT[b.kind]}>
                      {kindLabel(b.kind)}
                    </Tag>
                  </td>
                  <td>{b.takenBy ?? tx('the server')}</td>
                  <td>{fileSize(b.bytes)}</td>
                  <td className="gh-backup__actions">
                    <Button
                      size="small"
                      icon="download"
                      text={tx('Download')}
                      loading={running === `download|${b.id}`}
                      disabled={running !== null}
                      onClick={() => run(`download|${b.id}`)}
                      data-testid="backup-download"
                    />
                    <Button
                      size="small"
                      icon="history"
                      intent="warning"
                      text={tx('Restore')}
                      disabled={running !== null}
                      onClick={() => setConfirm({ verb: 'restore', backup: b })}
                      data-testid="backup-restore-button"
                    />
                    <Button
                      size="small"
                      icon="trash"
                      variant="minimal"
                      aria-label={tx('Delete')}
                      title={tx('Delete')}
                      disabled={running !== null}
                      onClick={() => setConfirm({ verb: 'delete', backup: b })}
                      data-testid="backup-delete"
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </TableScroll>
      )}
      {history.output && history.output.items.length > 0 && <History items={history.output.items} />}
      <Alert
        isOpen={confirm !== null}
        intent={confirm?.verb === 'restore' ? 'warning' : 'danger'}
        icon={confirm?.verb === 'restore' ? 'history' : 'trash'}
        confirmButtonText={confirm?.verb === 'restore' ? tx('Restore') : tx('Delete')}
        cancelButtonText={tx('Cancel')}
        onConfirm={() => {
          if (confirm) run(`${confirm.verb}|${confirm.backup.id}`);
          setConfirm(null);
        }}
        onCancel={() => setConfirm(null)}
      >
        {confirm?.verb === 'restore' ? (
          <>
            <p>
              <strong>{tx('Restore the backup of {when}?', { when: time.dateTime(confirm.backup.takenAt, true) })}</strong>
            </p>
            <p>
              {postgres
                ? tx(
                    'Every client’s data goes back to that moment: everything changed since is lost. The database is replaced in place, and everyone, you too, signs in again.',
                  )
                : tx(
                    'Every client’s data goes back to that moment: everything changed since is lost. The server restarts, and everyone, you too, signs in again.',
                  )}
            </p>
            <p className="bp6-text-muted">{tx('The database as it is now is backed up first, so this can be undone.')}</p>
          </>
        ) : confirm ? (
          <p>{tx('Delete the backup of {when}? Its file is gone for good.', { when: time.dateTime(confirm.backup.takenAt, true) })}</p>
        ) : null}
      </Alert>
    </div>
  );
}

/** How the last restore went, as the server recorded it (contract RestoreOutcome). */
function LastRestore({ outcome, when }: { outcome: RestoreOutcome; when: (id: string) => string }) {
  const time = useTime();
  const what = { backup: when(outcome.backupId), at: time.dateTime(outcome.at, true), by: outcome.by ?? tx('the server') };
  if (outcome.restored === true) {
    return (
      <Callout intent="success" icon="history" className="gh-mb" data-testid="backup-last-restore">
        {tx('Last restore: the backup of {backup}, restored {at} by {by}.', what)}
      </Callout>
    );
  }
  return (
    <Callout intent="danger" icon="history" className="gh-mb" data-testid="backup-last-restore" title={tx('The last restore did not happen')}>
      {tx('The backup of {backup}, asked for {at} by {by}: ', what)}
      {say(restoreProblem(outcome) ?? tx('The server stopped before the restore ended: the database is as it was.'))}
    </Callout>
  );
}

const HISTORY_LABELS: Record<string, string> = {
  'backup|create': 'Backup taken',
  'backup|delete': 'Backup deleted',
  'backup|upload': 'Backup uploaded',
  'backup|restore': 'Backup restored',
  'auto-backup settings|update': 'Auto-backup settings changed',
};
/** When the backup a record is about was taken; the settings a change changed. */
function historyDetail(r: AuditEntry, dateTime: (iso: string) => string): string {
  const before = (r.before ?? {}) as Record<string, unknown>;
  const after = (r.after ?? {}) as Record<string, unknown>;
  if (r.entity === 'backup') {
    const takenAt = (after.takenAt ?? before.takenAt) as string | undefined;
    return takenAt ? tx('the backup of {when}', { when: dateTime(takenAt) }) : (r.entityId ?? '');
  }
  return auditChangedFields(r).join(', ');
}

/** The backups' history, newest first: who took, deleted, uploaded or restored which backup, and changed the settings. */
function History({ items }: { items: AuditEntry[] }) {
  const time = useTime();
  return (
    <section className="gh-backup__history" data-testid="platform-history">
      <h3 className="bp6-heading">
        {tx('History')} <span className="bp6-text-muted gh-backup-log__zone">({time.zoneName()})</span>
      </h3>
      <TableScroll label={tx('Backup history')}>
        <HTMLTable compact striped className="gh-table-full gh-backup-log">
          <thead>
            <tr>
              <th>
                {tx('When')} ({time.zoneName()})
              </th>
              <th>{tx('Who')}</th>
              <th>{tx('What')}</th>
              <th>{tx('Which')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((r) => (
              <tr key={r.id} data-testid="platform-history-row">
                <td>{time.dateTime(r.at)}</td>
                <td>{r.actor}</td>
                <td>{tx(HISTORY_LABELS[`${r.entity}|${r.action}`] ?? `${r.entity}: ${r.action}`)}</td>
                <td className="gh-backup-log__which">{historyDetail(r, (iso) => time.dateTime(iso))}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </TableScroll>
    </section>
  );
}
