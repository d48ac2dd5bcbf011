import { AnchorButton, Button, Callout } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { API } from '../../../contract';
import { selectRunningCommand } from '../../../machines/command';
import type { AuditChainReport } from '../../hooks/answers';
import type { ServerFile } from '../../hooks/answers';
import { useReading } from '../../hooks/useReading';
import { useCommand } from '../../hooks/useCommand';
import { say, tx, useLocale } from '../../i18n';
import { activityReport, uiErrors } from '../../resources';
import { ListScreen } from '../../ui/ListScreen';
import { saveFile } from '../../ui/saveFile';
import { showDateTime } from '../../ui/time';

export const ActivityReportScreen = () => (
  <ListScreen
    testId="activity-report"
    title={tx('Activity report')}
    icon="history"
    resource={activityReport}
    description={tx('Every change an operator made in this client: who, when, what, before and after.')}
    before={<AuditChain />}
  />
);

/** Issue 31: whether the client's audit trail is as it was written (its hash chain walked now), and its verifiable export. */
function AuditChain() {
  useLocale();
  const chain = useReading<AuditChainReport | null>('auditChainReading');
  // the export is itself a change (audited), so the chain is verified again after it
  const exports = useCommand(
    'auditChainExports',
    () => null,
    (_, result) => {
      saveFile(result as ServerFile);
      chain.reload();
    },
  );
  const exporting = useSelector(exports, selectRunningCommand) !== null;
  const r = chain.output;
  const said = !r
    ? chain.failed
      ? tx('The audit chain could not be checked.')
      : tx('Checking the audit chain…')
    : !r.ok
      ? tx('The audit chain is broken: {problem}', {
          problem: r.problem
            ? say(r.problem.code ? { message: r.problem.message, code: r.problem.code, values: r.problem.values ?? {} } : r.problem.message)
            : '',
        })
      : !r.upTo
        ? tx('No changes recorded yet.')
        : r.records === 1
          ? tx('Chain verified up to record {seq} ({at}): 1 record as it was written.', { seq: r.upTo.seq, at: showDateTime(r.upTo.at) })
          : tx('Chain verified up to record {seq} ({at}): {n} records as they were written.', { seq: r.upTo.seq, at: showDateTime(r.upTo.at), n: r.records });
  return (
    <Callout
      compact
      intent={!r ? 'none' : r.ok ? 'success' : 'danger'}
      icon={r && !r.ok ? 'error' : 'endorsed'}
      data-testid="audit-chain"
      style={{ marginBottom: 8 }}
    >
      <span data-testid="audit-chain-status">{said}</span>{' '}
      {r?.ok && r.upTo && (
        <span data-testid="audit-chain-witnessed">
          {r.witnessed
            ? tx('Last head witnessed outside the database: record {seq}, signed {at}.', { seq: r.witnessed.seq, at: showDateTime(r.witnessed.signedAt) })
            : r.witnessing
              ? tx('No head witnessed outside the database yet.')
              : tx('No witness outside the database: the installation sets one with AUDIT_WITNESS_DIR.')}
        </span>
      )}{' '}
      <Button size="small" variant="minimal" icon="refresh" onClick={chain.reload} loading={chain.busy}>
        {tx('Verify again')}
      </Button>
      <Button
        size="small"
        variant="minimal"
        icon="export"
        onClick={() => exports.send({ type: 'command.run', command: 'export' })}
        loading={exporting}
        data-testid="audit-chain-export"
      >
        {tx('Verifiable export')}
      </Button>
      {/* the key `npm run audit -- verify-export FILE --key KEY.pem` checks an export with (an open route: a plain link) */}
      <AnchorButton size="small" variant="minimal" icon="key" href={`${API.audit}/public-key?format=pem`} download data-testid="audit-public-key">
        {tx('Public key (PEM)')}
      </AnchorButton>
    </Callout>
  );
}

export const UiErrorsScreen = () => (
  <ListScreen
    testId="ui-errors"
    title={tx('UI error log')}
    icon="error"
    resource={uiErrors}
    description={tx("Errors the console caught in operators' browsers, newest first.")}
  />
);

export { EventReportScreen } from './EventReportScreen';
