// /manage/identities/batch-upload [0.3.1.9] (issue 11): a spreadsheet of identities through a batch template.
// Step one picks the template and the file (CSV or XLSX) and asks for the dry run; the preview says how many rows
// would be created and updated and lists every bad row (row, employee no., field, message), with the whole
// report as a CSV download. Import streams the rows with a progress bar and ends with what it did, in a toast and
// on the page. The flow is the batchUpload machine (machines/batchUpload.ts); the server is server/batch.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Callout, Card, FileInput, FormGroup, H5, HTMLSelect, HTMLTable, ProgressBar, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { hasPrivilege, type BatchRowError } from '../../../contract';
import {
  selectBatchBusy,
  selectBatchCanImport,
  selectBatchError,
  selectBatchFieldError,
  selectBatchPreview,
  selectBatchProgress,
  selectBatchResult,
  selectBatchStage,
} from '../../../machines/batchUpload';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { useReading } from '../../hooks/useReading';
import { usePrivateActor, useViewActor } from '../../hooks/useViewActor';
import { useRouteInfo } from '../../app/RouteContext';
import { useSystemActor } from '../../hooks/useSystemActor';
import { routeDescription, routeTitle, tCat, say, tx, useLocale, type Locale } from '../../i18n';
import { violationText } from '../../i18n/violations';
import { identities } from '../../resources';
import { toCsv } from '../../resources/csv';
import { notify } from '../../hooks/console';
import { PageHeader } from '../../ui/PageHeader';
import './batchUpload.css';

/** A field the server named (`lastName`, `credentials.0.number`, `udf.shift`) as the identity form labels it. */
function fieldLabel(field: string, loc: Locale): string {
  const [head, , leaf] = field.split('.');
  for (const section of identities.form) {
    for (const f of section.fields) {
      if ('repeat' in f) {
        if (f.repeat !== head) continue;
        const child = f.fields.find((c) => c.name === leaf);
        const label = child ? (child.keys ? tCat(child.keys.label, child.label, loc) : tx(child.label)) : null;
        return label ? `${f.keys ? tCat(f.keys.itemLabel, f.itemLabel, loc) : tx(f.itemLabel)} · ${label}` : field;
      }
      if (f.name === head) return f.keys ? tCat(f.keys.label, f.label, loc) : tx(f.label);
    }
  }
  return field;
}

/** The error report's columns, in the reader's language: the page's table and the downloaded file say the same. */
const reportHeader = (loc: Locale) => [
  tx('Row', undefined, loc),
  tx('Employee no.', undefined, loc),
  tx('Field', undefined, loc),
  tx('Problem', undefined, loc),
];
/** One bad row's cells under those columns: its row, employee number, the field as the form labels it, the problem said by its key. */
const rowWords = (e: BatchRowError, loc: Locale) => [
  String(e.row),
  e.employeeNo ?? '',
  fieldLabel(e.field, loc),
  violationText(e, loc, (k, en) => tCat(k, en, loc)),
];

/** The whole error report as a file in the reader's language: the columns the page shows, each problem said by its key. */
const errorReportCsv = (errors: BatchRowError[], loc: Locale) =>
  toCsv(
    reportHeader(loc),
    errors.map((e) => rowWords(e, loc)),
  );

/** Bad rows listed on the page; the rest are in the downloadable report. */
const SHOWN_ERRORS = 100;

const save = (blob: Blob, name: string) => {
  const url = URL.createObjectURL(blob);
  Object.assign(document.createElement('a'), { href: url, download: name }).click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

export function BatchUploadScreen() {
  const { route } = useRouteInfo();
  const loc = useLocale();
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
  // outside the actor system: the spreadsheet itself is one of its events (people's data, megabytes)
  const upload = usePrivateActor('batchUploadLogic');
  const stage = useSelector(upload, selectBatchStage);
  const busy = useSelector(upload, selectBatchBusy);
  const preview = useSelector(upload, selectBatchPreview);
  const progress = useSelector(upload, selectBatchProgress);
  const result = useSelector(upload, selectBatchResult);
  const error = useSelector(upload, selectBatchError);
  const fileError = useSelector(upload, selectBatchFieldError('file'));
  const templateError = useSelector(upload, selectBatchFieldError('templateId'));
  const canImport = useSelector(upload, selectBatchCanImport);

  const templates = useReading<{ items: { id: number; label: string }[] }>('batchTemplatesReading');
  const reports = useViewActor('batchReportCommands');
  useEffect(() => {
    const sub = reports.on('command.done', ({ command, result }) =>
      save(new Blob([errorReportCsv(result as BatchRowError[], loc)], { type: 'text/csv;charset=utf-8' }), `batch-${command}-errors.csv`),
    );
    return () => sub.unsubscribe();
  }, [reports, loc]);
  const [templateId, setTemplateId] = useState<number | null>(null); // visual: the template chosen
  const [file, setFile] = useState<File | null>(null); // visual: the file chosen (sent to the upload actor on Preview)
  const [missing, setMissing] = useState<{ template?: string; file?: string }>({}); // visual: what is still to choose
  const fileInput = useRef<HTMLInputElement | null>(null);
  const chosenTemplate = templateId ?? templates.output?.items[0]?.id ?? null;
  const mayAddTemplate = hasPrivilege(held, ['0.3.1.7']);

  // the toast when an import ends: once per result
  useEffect(() => {
    if (!result) return;
    notify({
      intent: result.failed ? 'warning' : 'success',
      title: tx('Import finished'),
      message: tx('{created} created, {updated} updated, {failed} failed.', { created: result.created, updated: result.updated, failed: result.failed }),
      timeoutMs: 5000,
    });
  }, [result]);

  const askPreview = () => {
    const m = { template: chosenTemplate ? undefined : tx('Pick a batch template'), file: file ? undefined : tx('Choose a CSV or XLSX file') };
    setMissing(m);
    if (!chosenTemplate || !file) return;
    upload.send({ type: 'batch.preview', templateId: chosenTemplate, file, fileName: file.name });
  };
  const again = () => {
    upload.send({ type: 'batch.reset' });
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
  };
  const downloadReport = (id: number) => reports.send({ type: 'command.run', command: String(id) });

  const items = templates.output?.items ?? [];
  const fieldError = missing.file ?? fileError;
  const tplError = missing.template ?? templateError;
  return (
    <div className="gh-page-wrap" data-testid="batch-upload">
      <PageHeader title={routeTitle(route)} icon="upload" description={routeDescription(route)} />
      <Card className="gh-batch__step">
        <H5>{tx('File and template')}</H5>
        {!templates.busy && !templates.failed && templates.output && items.length === 0 && (
          <Callout intent="warning" icon="th" data-testid="batch-no-template">
            {tx('There is no batch template yet: a template says which column fills which identity field.')}{' '}
            {mayAddTemplate && <Link to="/manage/identity-batch-template/add">{tx('Add a batch template')}</Link>}
          </Callout>
        )}
        <div className="gh-batch__fields">
          <FormGroup
            label={tx('Batch template')}
            labelFor="field-templateId"
            intent={tplError ? 'danger' : 'none'}
            helperText={tplError ?? tx('Which column fills which field, and the division the identities go to.')}
          >
            <HTMLSelect
              id="field-templateId"
              fill
              value={chosenTemplate ?? ''}
              disabled={busy || items.length === 0}
              onChange={(e) => setTemplateId(Number(e.currentTarget.value))}
              options={items.length ? items.map((o) => ({ value: o.id, label: o.label })) : [{ value: '', label: '—' }]}
            />
          </FormGroup>
          <FormGroup
            label={tx('Spreadsheet')}
            labelFor="field-file"
            intent={fieldError ? 'danger' : 'none'}
            helperText={fieldError ?? tx('CSV (UTF-8) or XLSX, at most 10 MB; the first row holds the column headers.')}
          >
            <FileInput
              fill
              text={file?.name ?? tx('Choose a file…')}
              buttonText={tx('Browse')}
              hasSelection={!!file}
              disabled={busy}
              inputProps={
                {
                  id: 'field-file',
                  accept: '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
                  ref: fileInput,
                  'aria-invalid': !!fieldError,
                } as never
              }
              onInputChange={(e) => {
                setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null);
                setMissing({});
              }}
            />
          </FormGroup>
        </div>
        <div className="gh-batch__actions">
          <Button intent="primary" icon="eye-open" loading={stage === 'previewing'} disabled={busy} onClick={askPreview} data-testid="batch-preview">
            {tx('Preview')}
          </Button>
          <span className="gh-muted">{tx('Nothing is imported until you confirm the preview.')}</span>
        </div>
        {error && !fileError && !templateError && stage !== 'previewed' && (
          <Callout intent="danger" data-testid="batch-error">
            {say(error)}
          </Callout>
        )}
      </Card>

      {preview && (
        <Card className="gh-batch__step" data-testid="batch-summary">
          <H5>{tx('Preview of {file}', { file: preview.fileName })}</H5>
          <p>
            {tx('{total} rows with template {template}:', { total: preview.total, template: preview.template })}{' '}
            <Tag minimal intent="success" data-testid="batch-creates">
              {tx('{n} new', { n: preview.creates })}
            </Tag>{' '}
            <Tag minimal intent="primary" data-testid="batch-updates">
              {tx('{n} updates', { n: preview.updates })}
            </Tag>{' '}
            <Tag minimal intent={preview.invalidRows ? 'danger' : 'none'} data-testid="batch-invalid">
              {tx('{n} rows with errors', { n: preview.invalidRows })}
            </Tag>
          </p>
          {preview.errors.length > 0 && (
            <>
              <div className="gh-batch__errors">
                <HTMLTable compact striped data-testid="batch-errors">
                  <thead>
                    <tr>
                      {reportHeader(loc).map((h) => (
                        <th key={h}>{h}</th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {preview.errors.slice(0, SHOWN_ERRORS).map((e, i) => (
                      <tr key={`${e.row}-${e.field}-${i}`} data-testid="batch-error-row">
                        {rowWords(e, loc).map((w, j) => (
                          <td key={j}>{w}</td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
              </div>
              {preview.errors.length > SHOWN_ERRORS && (
                <p className="gh-muted">{tx('The first {n} problems are shown; the report has them all.', { n: SHOWN_ERRORS })}</p>
              )}
            </>
          )}
          {stage === 'previewed' && error && (
            <Callout intent="danger" data-testid="batch-error">
              {say(error)}
            </Callout>
          )}
          {stage === 'importing' && progress && (
            <div className="gh-batch__progress" data-testid="batch-progress">
              <ProgressBar intent="primary" value={progress.total ? progress.done / progress.total : undefined} />
              <span>{tx('{done} of {total} rows', { done: progress.done.toLocaleString(), total: progress.total.toLocaleString() })}</span>
            </div>
          )}
          {result && (
            <Callout intent={result.failed ? 'warning' : 'success'} icon="tick" data-testid="batch-result">
              {tx('Import finished')}:{' '}
              {tx('{created} created, {updated} updated, {failed} failed.', { created: result.created, updated: result.updated, failed: result.failed })}
            </Callout>
          )}
          <div className="gh-batch__actions">
            {stage !== 'imported' && (
              <Button
                intent="primary"
                icon="import"
                disabled={!canImport}
                loading={stage === 'importing'}
                onClick={() => upload.send({ type: 'batch.import' })}
                data-testid="batch-import"
              >
                {tx('Import {n} rows', { n: preview.valid })}
              </Button>
            )}
            {(preview.errors.length > 0 || (result?.errors ?? 0) > 0) && (
              <Button icon="download" variant="outlined" disabled={stage === 'importing'} onClick={() => downloadReport(preview.id)} data-testid="batch-report">
                {tx('Download error report')}
              </Button>
            )}
            {stage === 'imported' && (
              <Link to="/manage/identities" className="bp6-button bp6-outlined">
                {tx('Open identities')}
              </Link>
            )}
            <Button variant="minimal" icon="refresh" disabled={busy} onClick={again} data-testid="batch-again">
              {tx('Upload another file')}
            </Button>
          </div>
        </Card>
      )}
    </div>
  );
}
