// The named record panels of the catalogue (declaration screens.recordPanel): what a record's page shows beside its form
// that the catalogue cannot say by itself. `reportJobRuns`: a scheduled report job's reports, newest first, each with
// when it ran (in the user's zone), the period it covers, its rows or why it failed, and a Download for the CSV.
import { useEffect } from 'react';
import { Button, Callout, Card, H5, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { selectCommandError, selectRunningCommand } from '../../machines/command';
import { reportJobDownloads, reportJobRunsReading, type ReportJobRun } from '../api/readActors';
import type { ServerFile } from '../api/files';
import { saveFile } from '../ui/saveFile';
import { useReading } from '../app/useReading';
import { useViewActor } from '../app/useViewActor';
import { tx, useLocale } from '../i18n';
import { notify } from '../system/notices';
import { showDate, useTime } from '../ui/time';

export function RecordPanelNamed({ name, row }: { name: string; row: Record<string, unknown> }) {
  if (name === 'reportJobRuns') return <ReportJobRuns row={row} />;
  return null;
}

function ReportJobRuns({ row }: { row: Record<string, unknown> }) {
  useLocale();
  const time = useTime();
  const id = Number(row.id);
  // read again whenever the job ran (Run now, or the schedule while the page is open and the record reloads)
  const runs = useReading<ReportJobRun[]>(reportJobRunsReading, `read:report-job-runs:${id}`, { input: id, key: `${id}:${String(row.lastRunAt ?? '')}` });
  // downloads, one at a time (`<jobId>|<runId>`): the answer is the CSV, saved under the name the server gives it (the job's name and period)
  const downloads = useViewActor(reportJobDownloads, { id: `reportJob:downloads:${id}` });
  const busy = useSelector(downloads, selectRunningCommand);
  const failed = useSelector(downloads, selectCommandError);
  useEffect(() => {
    const sub = downloads.on('command.done', ({ result }) => saveFile(result as ServerFile));
    return () => sub.unsubscribe();
  }, [downloads]);
  useEffect(() => { if (failed) notify({ intent: 'danger', title: tx('Download failed'), message: failed, timeoutMs: 3000 }); }, [failed]);
  const download = (r: ReportJobRun) => downloads.send({ type: 'command.run', command: `${id}|${r.id}` });
  return (
    <Card className="gh-form__section" compact data-testid="report-job-runs">
      <H5>{tx('Reports')}</H5>
      {runs.failed && <Callout intent="danger" icon="error">{runs.error}</Callout>}
      {!runs.output && !runs.failed && <Spinner size={20} />}
      {runs.output && runs.output.length === 0 && <NonIdealState icon="document" title={tx('No reports yet')} description={tx('The first one is made at the next run, or now with Run now.')} />}
      {runs.output && runs.output.length > 0 && (
        <div className="gh-table-scroll">
          <HTMLTable compact striped className="gh-table-full">
            <thead><tr><th>{tx('Made')} ({time.zoneName()})</th><th>{tx('Period')}</th><th>{tx('Result')}</th><th /></tr></thead>
            <tbody>
              {runs.output.map((r) => (
                <tr key={r.id} data-testid="report-job-run">
                  <td>{time.dateTime(r.ranAt)}</td>
                  <td>{r.from === r.to ? showDate(r.from) : `${showDate(r.from)} – ${showDate(r.to)}`}</td>
                  <td>{r.ok ? <Tag minimal round intent="success">{tx('{n} rows', { n: r.rows })}</Tag> : <Tag minimal round intent="danger" title={r.status}>{r.status}</Tag>}</td>
                  <td>{r.ok && <Button size="small" icon="download" text={tx('Download')} loading={busy === `${id}|${r.id}`} disabled={busy !== null} onClick={() => download(r)} data-testid="report-job-download" />}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </Card>
  );
}
