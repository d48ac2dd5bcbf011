// Print record [1.0.10] (§2 "/print-record": no layout): a visit's record on one printable page, for the visitor and
// the front desk's file — who came, whom they saw, for what, when they signed in and out (in the user's zone, named),
// with lines to sign. Opened from a visitor's details (`/print-record?id={visitorId}`); Print asks the browser.
import { useSearchParams } from 'react-router-dom';
import { Button, Callout, NonIdealState, Spinner } from '@blueprintjs/core';
import type { Visitor } from '../../../contract';
import { useReading } from '../../hooks/useReading';
import { say, tx, useLocale } from '../../i18n';
import { purposeLabel } from '../../resources/visitors';
import { showDate, useTime } from '../../ui/time';
import './printRecord.css';

export function PrintRecordScreen() {
  useLocale();
  const { dateTime } = useTime();
  // a page without layout is never kept alive: its query is the router's current one
  const raw = useSearchParams()[0].get('id') ?? '';
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : null;
  const task = useReading<Visitor | { notFound: true } | null>('visitorReading', { input: id, key: id });
  const at = (iso: string | null | undefined) => (iso ? dateTime(iso, true) : '—');
  if (id === null || (task.output && 'notFound' in task.output)) {
    return (
      <div className="gh-print" data-testid="print-record">
        <NonIdealState
          icon="search"
          title={tx('Visitor not found')}
          description={tx('There is no such visitor in this client. It may belong to another client or have been removed.')}
        />
      </div>
    );
  }
  if (task.failed)
    return (
      <div className="gh-print">
        <Callout intent="danger" icon="error">
          {say(task.error ?? '')}
        </Callout>
      </div>
    );
  if (!task.output)
    return (
      <div className="gh-print">
        <Spinner />
      </div>
    );
  const v = task.output;
  const rows: [string, string][] = [
    [tx('Company'), v.company ?? '—'],
    [tx('ID number'), v.idNumber ?? '—'],
    [tx('Visiting'), v.hostName],
    [tx('Purpose'), purposeLabel(v.purpose)],
    [tx('Date of visit'), showDate(v.visitDate)],
    [tx('Badge valid until'), at(new Date(Date.parse(v.validUntil) - 60_000).toISOString())],
    [tx('Registered'), `${at(v.createdAt)}${v.createdBy ? ` · ${v.createdBy}` : ''}`],
    [tx('Badge printed'), at(v.badgePrintedAt)],
    [tx('Signed in'), at(v.signedInAt)],
    [tx('Signed out'), at(v.signedOutAt)],
  ];
  return (
    <div className="gh-print" data-testid="print-record">
      <div className="gh-print__actions">
        <Button intent="primary" icon="print" text={tx('Print')} onClick={() => window.print()} data-testid="print-now" />
        <Button icon="cross" text={tx('Close')} onClick={() => window.close()} />
      </div>
      <header className="gh-print__head">
        {v.photo && <img src={v.photo} alt="" className="gh-print__photo" />}
        <div>
          <p className="gh-print__kind" data-testid="print-issuer">
            {v.issuer ? `${v.issuer} · ` : ''}
            {tx('Visit record')}
            {v.siteCode !== null && v.siteCode !== undefined ? ` · ${tx('Site code')} ${v.siteCode}` : ''}
          </p>
          <h1 data-testid="print-name">
            {v.firstName} {v.lastName}
          </h1>
        </div>
      </header>
      <table className="gh-print__facts">
        <tbody>
          {rows.map(([k, x]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td>{x}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="gh-print__signatures">
        <div>
          <span />
          {tx('Visitor')}
        </div>
        <div>
          <span />
          {tx('Host')}
        </div>
        <div>
          <span />
          {tx('Front desk')}
        </div>
      </div>
    </div>
  );
}
