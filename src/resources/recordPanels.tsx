// The named record panels of the catalogue (declaration screens.recordPanel): what a record's page shows beside its form
// that the catalogue cannot say by itself. `reportJobRuns`: a scheduled report job's history, newest first, each run
// with when it ran (in the user's zone), the period it covers, its rows, format and size (cut at the row cap or not) or
// why it failed, to whom it was delivered (mail, web hook and that delivery's state), a Download while its file is
// kept and a Retry of a failed run; above them, whether this server mails at all (SMTP_URL). `osdpReaders` and
// `osdpReader` (issue 46): a controller's OSDP readers, and a card reader's own (./OsdpReadersPanel.tsx).
import { useEffect } from 'react';
import { Button, Callout, Card, H5, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { selectCommandError, selectRunningCommand } from '../../machines/command';
import { mayOnRow, reportJobsResource } from '../../contract';
import { selectHeldPrivileges } from '../../machines/session.selectors';
import { useSystemActor } from '../hooks/useSystemActor';
import type { ReportJobRun, ReportJobRuns as RunHistory } from '../hooks/answers';
import type { ServerFile } from '../hooks/answers';
import { saveFile } from '../ui/saveFile';
import { useReading } from '../hooks/useReading';
import { useViewActor } from '../hooks/useViewActor';
import { say, tx, useLocale } from '../i18n';
import { notify } from '../hooks/console';
import { showDate, useTime } from '../ui/time';
import { TableScroll } from '../ui/TableScroll';
import { OsdpReadersPanel } from './OsdpReadersPanel';

export function RecordPanelNamed({ name, row }: { name: string; row: Record<string, unknown> }) {
  if (name === 'reportJobRuns') return <ReportJobRuns row={row} />;
  if (name === 'osdpReaders') return <OsdpReadersPanel of={{ controllerId: Number(row.id) }} />;
  if (name === 'osdpReader') return <OsdpReadersPanel of={{ cardReaderId: Number(row.id) }} />;
  return null;
}

const kb = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Where one run went: the addresses it was mailed to (or why not), its web hook and that delivery's state. */
function Delivered({ r }: { r: ReportJobRun }) {
  const parts: React.ReactNode[] = [];
  if (r.mailedTo)
    parts.push(
      <div key="m" data-testid="report-job-mailed">
        {tx('Mailed to {to}', { to: r.mailedTo.join(', ') })}
      </div>,
    );
  if (r.mailError)
    parts.push(
      <div key="e" className="bp6-text-muted" data-testid="report-job-mail-error">
        {tx('Mail failed: {reason}', { reason: r.mailError })}
      </div>,
    );
  if (r.webHook) {
    const intent = r.webHook.state === 'delivered' ? 'success' : r.webHook.state === 'failed' ? 'danger' : 'none';
    parts.push(
      <div key="w">
        <Tag minimal round intent={intent} title={r.webHook.error ?? undefined}>
          {tx('Web hook {name}: {state}', {
            name: r.webHook.name,
            state: tx(r.webHook.state === 'delivered' ? 'delivered' : r.webHook.state === 'failed' ? 'failed' : 'pending'),
          })}
        </Tag>
      </div>,
    );
  }
  return parts.length ? <>{parts}</> : <span className="bp6-text-muted">{tx('Kept here')}</span>;
}

function ReportJobRuns({ row }: { row: Record<string, unknown> }) {
  useLocale();
  const time = useTime();
  const id = Number(row.id);
  // Retry needs the edit code of the job's own family (an auditor with view codes reads the history only)
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const editable = mayOnRow(reportJobsResource, 'edit', held, row);
  // read again whenever the job ran (Run now, or the schedule while the page is open and the record reloads); a retried run
  // tells the reading actor itself (read.reload)
  const runs = useReading<RunHistory>('reportJobRunsReading', { input: id, key: `${id}:${String(row.lastRunAt ?? '')}` });
  const { reload } = runs;
  // downloads, one at a time (`<jobId>|<runId>`): the answer is the file, saved under the name the server gives it (the job's name and period)
  const downloads = useViewActor('reportJobDownloads');
  const busy = useSelector(downloads, selectRunningCommand);
  const failed = useSelector(downloads, selectCommandError);
  // Retry of a failed run: made again for its period, delivered again
  const retries = useViewActor('reportJobRetries');
  const retrying = useSelector(retries, selectRunningCommand);
  const retryFailed = useSelector(retries, selectCommandError);
  useEffect(() => {
    const sub = downloads.on('command.done', ({ result }) => saveFile(result as ServerFile));
    return () => sub.unsubscribe();
  }, [downloads]);
  useEffect(() => {
    const sub = retries.on('command.done', ({ result }) => {
      const run = result as ReportJobRun;
      notify({
        intent: run.ok ? 'success' : 'warning',
        title: run.ok ? tx('Run retried: report made.') : tx('Run retried: it failed again.'),
        message: run.status,
        timeoutMs: 4000,
      });
      reload();
    });
    return () => sub.unsubscribe();
  }, [retries, reload]);
  useEffect(() => {
    if (failed) notify({ intent: 'danger', title: tx('Download failed'), message: say(failed), timeoutMs: 3000 });
  }, [failed]);
  useEffect(() => {
    if (retryFailed) notify({ intent: 'danger', title: tx('Retry failed'), message: say(retryFailed), timeoutMs: 3000 });
  }, [retryFailed]);
  const download = (r: ReportJobRun) => downloads.send({ type: 'command.run', command: `${id}|${r.id}` });
  const retry = (r: ReportJobRun) => retries.send({ type: 'command.run', command: `${id}|${r.id}` });
  const items = runs.output?.items;
  const mailOff = runs.output && !runs.output.delivery.email;
  return (
    <Card className="gh-form__section" compact data-testid="report-job-runs">
      <H5>{tx('Reports')}</H5>
      {mailOff && (
        <Callout intent="warning" icon="envelope" compact data-testid="report-job-mail-off">
          {tx('E-mail is not configured on this server (SMTP_URL): reports are kept here for download and sent to the job’s web hook, and nobody is mailed.')}
        </Callout>
      )}
      {runs.failed && (
        <Callout intent="danger" icon="error">
          {say(runs.error ?? '')}
        </Callout>
      )}
      {!runs.output && !runs.failed && <Spinner size={20} />}
      {items && items.length === 0 && (
        <NonIdealState icon="document" title={tx('No reports yet')} description={tx('The first one is made at the next run, or now with Run now.')} />
      )}
      {items && items.length > 0 && (
        <TableScroll label={tx('Run history')}>
          <HTMLTable compact striped className="gh-table-full">
            <thead>
              <tr>
                <th>
                  {tx('Made')} ({time.zoneName()})
                </th>
                <th>{tx('Period')}</th>
                <th>{tx('Result')}</th>
                <th>{tx('Delivered')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.id} data-testid="report-job-run" data-ok={r.ok ? 'true' : 'false'}>
                  <td>
                    {time.dateTime(r.ranAt)}
                    {r.dueAt === null && <div className="bp6-text-muted">{tx('Run now')}</div>}
                    {r.attempts > 1 && <div className="bp6-text-muted">{tx('{n} attempts', { n: r.attempts })}</div>}
                  </td>
                  <td>{r.from === r.to ? showDate(r.from) : `${showDate(r.from)} – ${showDate(r.to)}`}</td>
                  <td>
                    {r.rows > 0 || r.file ? (
                      <Tag minimal round intent={r.ok ? 'success' : 'warning'} title={r.status}>
                        {tx('{n} rows', { n: r.rows })}
                        {` · ${r.format.toUpperCase()} · ${kb(r.bytes)}`}
                      </Tag>
                    ) : (
                      <Tag minimal round intent="danger" title={r.status}>
                        {r.status}
                      </Tag>
                    )}
                    {r.cut && (
                      <div data-testid="report-job-cut">
                        <Tag minimal round intent="warning">
                          {tx('Cut at the row cap')}
                        </Tag>
                      </div>
                    )}
                  </td>
                  <td>
                    <Delivered r={r} />
                  </td>
                  <td>
                    {r.file && (
                      <Button
                        size="small"
                        icon="download"
                        text={tx('Download')}
                        loading={busy === `${id}|${r.id}`}
                        disabled={busy !== null}
                        onClick={() => download(r)}
                        data-testid="report-job-download"
                      />
                    )}
                    {!r.file && r.ok && <span className="bp6-text-muted">{tx('File no longer kept')}</span>}
                    {!r.ok && editable && (
                      <Button
                        size="small"
                        icon="refresh"
                        intent="primary"
                        variant="minimal"
                        text={tx('Retry')}
                        loading={retrying === `${id}|${r.id}`}
                        disabled={retrying !== null}
                        onClick={() => retry(r)}
                        data-testid="report-job-retry"
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </TableScroll>
      )}
    </Card>
  );
}
