// Attendance Summaries [3.6.0] (§2 Attendance "/summaries"): each member's days of a period — scheduled, present, late,
// absent, on leave — and the time worked (unpaid breaks taken off), of it the overtime of days off, and the time lost
// to lateness, the sums of the days as daily attendance counts them (contract/attendanceDaily.ts). The period starts as this month up to today, in the user's zone.
import { useMemo, useState } from 'react';
import { Button, Callout, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import type { AttendanceSummary, AttendanceSummaryQuery } from '../../../contract';
import { useRouteInfo } from '../../app/RouteContext';
import { useReading } from '../../hooks/useReading';
import { routeDescription, routeTitle, say, tx, useLocale } from '../../i18n';
import { PageHeader } from '../../ui/PageHeader';
import { getClientToday } from '../../ui/time';
import { TeamSelect, hours, periodMessage } from './parts';
import { DateField } from '../../ui/DateField';
import { ExportButtons, type ExportFormat } from '../../ui/ExportButtons';
import { saveFile } from '../../ui/saveFile';
import { useCommand } from '../../hooks/useCommand';
import type { ServerFile } from '../../hooks/answers';
import { useSelector } from '@xstate/react';
import { selectRunningCommand } from '../../../machines/command';
import { TableScroll } from '../../ui/TableScroll';
import './attendance.css';

export function AttendanceSummariesScreen() {
  const { route } = useRouteInfo();
  useLocale();
  // visual: the period and team asked for (the reading's input is what is journaled)
  const [to, setTo] = useState(() => getClientToday());
  const [from, setFrom] = useState(() => `${getClientToday().slice(0, 8)}01`);
  const [teamId, setTeamId] = useState('');
  const problem = periodMessage(from, to);
  const input = useMemo<AttendanceSummaryQuery | null>(
    () => (problem ? null : { from, to, ...(teamId ? { teamId: Number(teamId) } : {}) }),
    [problem, from, to, teamId],
  );
  const summary = useReading<AttendanceSummary | null>('attendanceSummaryReading', { input, key: `${from}|${to}|${teamId}` });
  const rows = summary.output?.rows ?? [];
  const heads = [tx('Name'), tx('Team'), tx('Scheduled'), tx('Present'), tx('Late'), tx('Absent'), tx('On leave'), tx('Worked'), tx('Overtime'), tx('Late by')];
  // the file is the server's (its one tabular writer), the same rows in minutes as counted
  const exports = useCommand(
    'attendanceExports',
    () => null,
    (_, result) => saveFile(result as ServerFile),
  );
  const exporting = useSelector(exports, selectRunningCommand) !== null;
  const exportAs = (format: ExportFormat) => exports.send({ type: 'command.run', command: `summary|${format}|${from}|${to}|${teamId}` });

  return (
    <div className="gh-page" data-testid="attendance-summaries">
      <PageHeader title={routeTitle(route)} icon={route.icon} description={routeDescription(route)} />
      <div className="gh-toolbar gh-attendance__toolbar">
        <DateField value={from} onChange={setFrom} aria-label={tx('First day')} />
        <span aria-hidden>–</span>
        <DateField value={to} onChange={setTo} aria-label={tx('Last day')} />
        <TeamSelect value={teamId} onChange={setTeamId} />
        <span className="gh-toolbar__spacer" />
        <Button icon="refresh" aria-label={tx('Refresh')} onClick={summary.reload} loading={summary.busy} />
        <ExportButtons onExport={exportAs} disabled={!rows.length || exporting} testId="summary-export" />
      </div>
      {problem && (
        <Callout intent="warning" icon="calendar" data-testid="summary-problem">
          {problem}
        </Callout>
      )}
      {summary.failed && (
        <Callout intent="danger" icon="error">
          {say(summary.error ?? '')} <Button variant="minimal" text={tx('Try again')} onClick={summary.reload} />
        </Callout>
      )}
      {!problem && !summary.output && !summary.failed && <Spinner size={24} />}
      {summary.output && (
        <p className="bp6-text-muted gh-attendance__foot" data-testid="summary-days">
          {tx('{n} days counted, up to today; days still ahead are not.', { n: summary.output.days })}
        </p>
      )}
      {summary.output && rows.length === 0 && (
        <NonIdealState
          icon="people"
          title={tx('Nobody to show')}
          description={tx('No team has members you may see. Teams and their members are kept under Time and attendance → Teams.')}
        />
      )}
      {rows.length > 0 && (
        <TableScroll label={tx('Attendance summaries')}>
          <HTMLTable compact striped className="gh-attendance__table" data-testid="summary-table">
            <thead>
              <tr>
                {heads.map((h) => (
                  <th key={h}>{h}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.teamId}:${r.identityId}`}>
                  <td>
                    <div>{r.name}</div>
                    {r.employeeNo && <div className="bp6-text-muted bp6-text-small">{r.employeeNo}</div>}
                  </td>
                  <td>{r.team}</td>
                  <td>{r.scheduledDays}</td>
                  <td>{r.presentDays}</td>
                  <td>{r.lateDays}</td>
                  <td>{r.absentDays}</td>
                  <td>{r.leaveDays}</td>
                  <td data-testid="summary-worked">{hours(r.workedMinutes)}</td>
                  <td data-testid="summary-overtime">{hours(r.overtimeMinutes)}</td>
                  <td>{hours(r.lateMinutes)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </TableScroll>
      )}
    </div>
  );
}
