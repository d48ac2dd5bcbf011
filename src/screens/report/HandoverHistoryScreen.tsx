// /report/handovers [0.2.6.0] (issue 50): a past shift handover can be found again — every acknowledged handover of
// the client, newest first (the server keeps the last 100): the shift, who acknowledged it and when, how many alarms
// were still open at its end, and the note left for the next shift. Times in the user's zone, the zone named in the
// column headers. At 390 px the table scrolls inside its own box.
import { Button, Callout, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { formatNumber } from '../../../contract';
import type { HandoverHistory } from '../../../contract/handover';
import { useRouteInfo } from '../../app/RouteContext';
import { useReading } from '../../hooks/useReading';
import { routeDescription, routeTitle, say, tx } from '../../i18n';
import { PageHeader } from '../../ui/PageHeader';
import { TableScroll } from '../../ui/TableScroll';
import { useTime } from '../../ui/time';

export function HandoverHistoryScreen() {
  const { route } = useRouteInfo();
  const time = useTime();
  const history = useReading<HandoverHistory>('handoverHistoryReading');
  const items = history.output?.items ?? null;
  const zoned = (title: string) => `${title} (${time.zoneName()})`;
  return (
    <div className="gh-page" data-testid="handover-history">
      <PageHeader
        title={routeTitle(route)}
        icon={route.icon}
        description={routeDescription(route)}
        actions={<Button icon="refresh" aria-label={tx('Refresh')} onClick={history.reload} loading={history.busy} />}
      />
      {history.failed && (
        <Callout intent="danger" icon="error">
          {say(history.error ?? '')} <Button variant="minimal" text={tx('Try again')} onClick={history.reload} />
        </Callout>
      )}
      {items === null ? (
        !history.failed && <NonIdealState icon={<Spinner />} title={tx('Loading…')} />
      ) : items.length === 0 ? (
        <NonIdealState
          icon="exchange"
          title={tx('No handover acknowledged yet')}
          description={tx('A shift handover is acknowledged on the dashboard once its shift has ended.')}
        />
      ) : (
        <TableScroll label={routeTitle(route)} testId="handover-history-scroll">
          <HTMLTable compact striped className="gh-table" data-testid="handover-history-table">
            <thead>
              <tr>
                <th>{zoned(tx('Shift'))}</th>
                <th>{tx('Acknowledged by')}</th>
                <th>{zoned(tx('Acknowledged at'))}</th>
                <th>{tx('Alarms open at the end')}</th>
                <th>{tx('Note for the next shift')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((h) => (
                <tr key={h.id} data-testid="handover-history-row">
                  <td>{tx('{start} to {end}', { start: time.dateTime(h.start), end: time.dateTime(h.end) })}</td>
                  <td>{h.name}</td>
                  <td className="gh-nowrap">{time.dateTime(h.at)}</td>
                  <td>
                    <Tag minimal round intent={h.open > 0 ? 'warning' : 'none'}>
                      {formatNumber(h.open)}
                    </Tag>
                  </td>
                  <td style={{ minWidth: '14rem', whiteSpace: 'pre-wrap' }}>{h.note ?? <span className="bp6-text-muted">{tx('No note')}</span>}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </TableScroll>
      )}
    </div>
  );
}
