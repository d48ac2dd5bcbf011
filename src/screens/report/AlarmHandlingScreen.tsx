// /report/alarm-handling [0.6.7.0] (issue 31): how fast the client's alarms were handled over a period of days — in
// total as cards, and per priority, alarm type, operator or hour of the day as a chart and a table. Every count is a
// link to the event report showing exactly the alarms behind it (contract alarmFigureQuery; a bar of the chart opens
// the alarms it counts). The days and hours are the client's (the server's report); the period's instants are shown
// in the user's zone. Exported as CSV or XLSX by the server's tabular writer. At 390 px the cards wrap, the chart
// keeps the width it is given and the table scrolls inside its own box.
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Callout, Card, HTMLTable, NonIdealState, SegmentedControl, Spinner } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { selectRunningCommand } from '../../../machines/command';
import {
  ALARM_HANDLING_MAX_DAYS,
  alarmFigureQuery,
  alarmPeriodProblem,
  type AlarmFigure,
  type AlarmFigures,
  type AlarmGrouping,
  type AlarmHandlingReport,
  type Durations,
} from '../../../contract/alarmHandling';
import type { ServerFile } from '../../hooks/answers';
import { useRouteInfo } from '../../app/RouteContext';
import { useCommand } from '../../hooks/useCommand';
import { useReading } from '../../hooks/useReading';
import { routeDescription, routeTitle, say, tx, useLocale } from '../../i18n';
import { BarChart } from '../../ui/BarChart';
import { PageHeader } from '../../ui/PageHeader';
import { saveFile } from '../../ui/saveFile';
import { getClientToday, showDateTime } from '../../ui/time';
import { DateField } from '../../ui/DateField';
import { ExportButtons } from '../../ui/ExportButtons';
import { TableScroll } from '../../ui/TableScroll';
import { ManagementFigures } from './ManagementFigures';

/** A duration in seconds as m:ss, or h:mm:ss from an hour on; a dash when there is none. */
export function duration(s: number | null): string {
  if (s === null) return '–';
  const t = Math.round(s);
  const h = Math.floor(t / 3600),
    m = Math.floor((t % 3600) / 60),
    sec = t % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

const GROUPINGS: { value: AlarmGrouping; label: string }[] = [
  { value: 'priority', label: 'Priority' },
  { value: 'type', label: 'Alarm type' },
  { value: 'operator', label: 'Operator' },
  { value: 'hour', label: 'Hour of the day' },
];

function periodMessage(from: string, to: string): string | null {
  const p = alarmPeriodProblem(from, to);
  if (!p) return null;
  // by the problem's key (issue 48), not its English
  if (p.code === 'day.beforeFirstDay') return tx('The last day is before the first.');
  if (p.code === 'day.beyondFirstDay') return tx('At most {n} days at once.', { n: ALARM_HANDLING_MAX_DAYS });
  return tx('Choose the first and last day.');
}

export function AlarmHandlingScreen() {
  const { route } = useRouteInfo();
  useLocale();
  const navigate = useNavigate();
  // visual: the period and grouping as chosen (the reading's input)
  const [to, setTo] = useState(() => getClientToday());
  const [from, setFrom] = useState(() => `${getClientToday().slice(0, 8)}01`);
  const [grouping, setGrouping] = useState<AlarmGrouping>('priority');
  const problem = periodMessage(from, to);
  const input = useMemo(() => (problem ? null : { from, to }), [problem, from, to]);
  const report = useReading<AlarmHandlingReport | null>('alarmHandlingReading', { input, key: `${from}|${to}` });
  const exports = useCommand(
    'alarmHandlingExports',
    () => null,
    (_, result) => saveFile(result as ServerFile),
  );
  const exporting = useSelector(exports, selectRunningCommand) !== null;
  const r = report.output;
  const behind = (group: AlarmGrouping | 'total', key: string, figure: AlarmFigure) =>
    r ? `/report/event?${new URLSearchParams(alarmFigureQuery(r, group, key, figure))}` : '#';
  const exportAs = (format: 'csv' | 'xlsx') => exports.send({ type: 'command.run', command: `${format}|${from}|${to}` });

  return (
    <div className="gh-page" data-testid="alarm-handling">
      <PageHeader title={routeTitle(route)} icon={route.icon} description={routeDescription(route)} />
      <div className="gh-toolbar gh-attendance__toolbar">
        <DateField value={from} onChange={setFrom} aria-label={tx('First day')} />
        <span aria-hidden>–</span>
        <DateField value={to} onChange={setTo} aria-label={tx('Last day')} />
        <span className="gh-toolbar__spacer" />
        <Button icon="refresh" aria-label={tx('Refresh')} onClick={report.reload} loading={report.busy} />
        <ExportButtons onExport={exportAs} disabled={!r || exporting} testId="alarm-handling-csv" />
      </div>
      {problem && (
        <Callout intent="warning" icon="calendar" data-testid="alarm-handling-problem">
          {problem}
        </Callout>
      )}
      {report.failed && (
        <Callout intent="danger" icon="error">
          {say(report.error ?? '')} <Button variant="minimal" text={tx('Try again')} onClick={report.reload} />
        </Callout>
      )}
      {!problem && !r && !report.failed && <Spinner size={24} />}
      {r && (
        <>
          <p className="bp6-text-muted" data-testid="alarm-handling-period">
            {tx('Alarms raised from {start} to {end}; days and hours of the day are in the client zone ({zone}).', {
              start: showDateTime(r.start, true),
              end: showDateTime(r.end, true),
              zone: r.zone,
            })}
          </p>
          <TotalCards r={r} behind={behind} />
          {r.total.raised === 0 ? (
            <NonIdealState icon="tick-circle" title={tx('No alarms in this period')} description={tx('Alarms of divisions you may not see are not counted.')} />
          ) : (
            <>
              <div style={{ margin: '12px 0', maxWidth: '100%', overflowX: 'auto' }}>
                <SegmentedControl
                  options={GROUPINGS.map((g) => ({ value: g.value, label: tx(g.label) }))}
                  value={grouping}
                  onValueChange={(v) => setGrouping(v as AlarmGrouping)}
                  size="small"
                  data-testid="alarm-handling-grouping"
                />
              </div>
              <GroupChart r={r} grouping={grouping} onOpen={(key) => navigate(behind(grouping, key, 'raised'))} />
              <GroupTable r={r} grouping={grouping} behind={behind} />
              {r.management && <ManagementFigures m={r.management} />}
            </>
          )}
          <p className="bp6-text-muted bp6-text-small" data-testid="alarm-handling-targets">
            {tx('Targets (acknowledge / process, minutes): {targets}. They are kept in the alarm settings.', {
              targets: r.targets.map((t) => `P${t.priority}${t.priority === 4 ? '+' : ''} ${t.ackMinutes} / ${t.processMinutes}`).join(', '),
            })}
          </p>
        </>
      )}
    </div>
  );
}

type Behind = (group: AlarmGrouping | 'total', key: string, figure: AlarmFigure) => string;

function Count({ n, to, testId }: { n: number; to: string; testId?: string }) {
  return n ? (
    <Link to={to} data-testid={testId}>
      {n}
    </Link>
  ) : (
    <span data-testid={testId}>0</span>
  );
}

function TotalCards({ r, behind }: { r: AlarmHandlingReport; behind: Behind }) {
  const f = r.total;
  const times = (d: Durations) =>
    tx('median {median}, p90 {p90}, worst {worst}', { median: duration(d.median), p90: duration(d.p90), worst: duration(d.worst) });
  const cards: { title: string; value: ReactNode; note?: string; id: string }[] = [
    { id: 'raised', title: tx('Alarms raised'), value: <Count n={f.raised} to={behind('total', '', 'raised')} testId="alarm-handling-raised" /> },
    {
      id: 'ack',
      title: tx('Time to acknowledge'),
      value: <Link to={behind('total', '', 'acknowledged')}>{duration(f.acknowledge.median)}</Link>,
      note: times(f.acknowledge),
    },
    {
      id: 'process',
      title: tx('Time to process'),
      value: <Link to={behind('total', '', 'processed')}>{duration(f.process.median)}</Link>,
      note: times(f.process),
    },
    { id: 'open', title: tx('Open at the end'), value: <Count n={f.openAtEnd} to={behind('total', '', 'open')} testId="alarm-handling-open" /> },
    { id: 'note', title: tx('Processed without a note'), value: <Count n={f.withoutNote} to={behind('total', '', 'withoutNote')} /> },
    {
      id: 'late-ack',
      title: tx('Past the acknowledge target'),
      value: <Count n={f.lateAcknowledge} to={behind('total', '', 'lateAcknowledge')} testId="alarm-handling-late-ack" />,
    },
    { id: 'late-process', title: tx('Past the process target'), value: <Count n={f.lateProcess} to={behind('total', '', 'lateProcess')} /> },
  ];
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 8 }}>
      {cards.map((c) => (
        <Card key={c.id} compact data-testid={`alarm-handling-card-${c.id}`}>
          <div className="bp6-text-muted bp6-text-small">{c.title}</div>
          <div style={{ fontSize: 22, fontWeight: 600 }}>{c.value}</div>
          {c.note && <div className="bp6-text-muted bp6-text-small">{c.note}</div>}
        </Card>
      ))}
    </div>
  );
}

const label = (grouping: AlarmGrouping, l: string) => (grouping === 'operator' && !l ? tx('Nobody yet') : l);

/** Per group: alarms raised, and of them those past the acknowledge and the process target; a click on a group opens
 *  the alarms it raised. */
function GroupChart({ r, grouping, onOpen }: { r: AlarmHandlingReport; grouping: AlarmGrouping; onOpen: (key: string) => void }) {
  const rows = r[grouping].map((g) => ({
    key: g.key,
    label: label(grouping, g.label),
    values: [g.figures.raised, g.figures.lateAcknowledge, g.figures.lateProcess],
  }));
  const series = [
    { name: tx('Raised'), colour: '#2d72d2' },
    { name: tx('Past acknowledge target'), colour: '#c87619' },
    { name: tx('Past process target'), colour: '#cd4246' },
  ];
  return (
    <Card compact data-testid="alarm-handling-chart" style={{ marginBottom: 8 }}>
      <BarChart
        name={tx('Alarm handling')}
        series={series}
        rows={rows}
        height={220}
        labelEvery={Math.max(1, Math.ceil(rows.length / 8))}
        legend
        onOpen={onOpen}
      />
    </Card>
  );
}

function GroupTable({ r, grouping, behind }: { r: AlarmHandlingReport; grouping: AlarmGrouping; behind: Behind }) {
  const heads = [
    tx(GROUPINGS.find((g) => g.value === grouping)!.label),
    tx('Raised'),
    tx('Acknowledge (median / p90 / worst)'),
    tx('Process (median / p90 / worst)'),
    tx('Open at the end'),
    tx('Without a note'),
    tx('Past acknowledge target'),
    tx('Past process target'),
  ];
  const three = (d: Durations) => `${duration(d.median)} / ${duration(d.p90)} / ${duration(d.worst)}`;
  const cell = (g: { key: string }, f: AlarmFigures, figure: AlarmFigure, n: number, id?: string) => (
    <Count n={n} to={behind(grouping, g.key, figure)} testId={id} />
  );
  return (
    <TableScroll label={tx('Alarm handling')}>
      <HTMLTable compact striped data-testid="alarm-handling-table">
        <thead>
          <tr>
            {heads.map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {r[grouping].map((g) => (
            <tr key={g.key} data-testid={`alarm-handling-row-${g.key || 'nobody'}`}>
              <td>{label(grouping, g.label)}</td>
              <td>{cell(g, g.figures, 'raised', g.figures.raised, `alarm-handling-raised-${g.key || 'nobody'}`)}</td>
              <td style={{ whiteSpace: 'nowrap' }}>{three(g.figures.acknowledge)}</td>
              <td style={{ whiteSpace: 'nowrap' }}>{three(g.figures.process)}</td>
              <td>{cell(g, g.figures, 'open', g.figures.openAtEnd)}</td>
              <td>{cell(g, g.figures, 'withoutNote', g.figures.withoutNote)}</td>
              <td>{cell(g, g.figures, 'lateAcknowledge', g.figures.lateAcknowledge)}</td>
              <td>{cell(g, g.figures, 'lateProcess', g.figures.lateProcess)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </TableScroll>
  );
}
