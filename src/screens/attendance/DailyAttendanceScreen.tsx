// Daily Attendance [3.2.0] (§2 Attendance "/daily-attendance"): one day of the client's teams — who came in, late or
// not at all, who is on leave or off — from their badge-ins and their team's work schedule (the rules are the
// contract's, contract/attendanceDaily.ts). Pick a day (today by default, in the user's zone) and a team; the day's
// badge times show in the user's zone, the shifts as the schedule gives them (the client's clock). Worked time is the
// span less the unpaid break when it was taken (said under it); a day off's worked time is overtime, labelled so.
import { useMemo, useState } from 'react';
import { Button, ButtonGroup, Callout, HTMLTable, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import { formatInTimeZone } from 'date-fns-tz';
import { ATTENDANCE_STATUSES, type AttendanceStatus, type DailyAttendance, type DailyAttendanceQuery } from '../../../contract';
import { useReading } from '../../hooks/useReading';
import { say, tx, useLocale } from '../../i18n';
import { PageHeader } from '../../ui/PageHeader';
import { getClientToday, useTime } from '../../ui/time';
import { DAY, TeamSelect, addDays, hours } from './parts';
import { useRouteInfo } from '../../app/RouteContext';
import { routeDescription, routeTitle } from '../../i18n';
import { DateField } from '../../ui/DateField';
import { ExportButtons, type ExportFormat } from '../../ui/ExportButtons';
import { saveFile } from '../../ui/saveFile';
import { useCommand } from '../../hooks/useCommand';
import type { ServerFile } from '../../hooks/answers';
import { useSelector } from '@xstate/react';
import { selectRunningCommand } from '../../../machines/command';
import { TableScroll } from '../../ui/TableScroll';
import './attendance.css';

const INTENT: Record<AttendanceStatus, Intent> = {
  present: 'success',
  late: 'warning',
  absent: 'danger',
  'not-yet': 'none',
  'on-leave': 'primary',
  'day-off': 'none',
};
const statusLabel = (s: AttendanceStatus) => tx(ATTENDANCE_STATUSES.find((x) => x.value === s)!.label);

export function DailyAttendanceScreen() {
  const { route } = useRouteInfo();
  useLocale();
  const time = useTime();
  // visual: the day and team asked for (the reading's input is what is journaled)
  const [date, setDate] = useState(() => getClientToday());
  const [teamId, setTeamId] = useState('');
  const valid = DAY.test(date);
  const input = useMemo<DailyAttendanceQuery | null>(() => (valid ? { date, ...(teamId ? { teamId: Number(teamId) } : {}) } : null), [valid, date, teamId]);
  const day = useReading<DailyAttendance | null>('dailyAttendanceReading', { input, key: `${date}|${teamId}` });
  const rows = useMemo(() => day.output?.rows ?? [], [day.output]);
  const at = (iso: string | null) => (iso ? formatInTimeZone(iso, time.zone, 'HH:mm') : '');
  const counts = useMemo(() => ATTENDANCE_STATUSES.map((s) => ({ ...s, n: rows.filter((r) => r.status === s.value).length })).filter((s) => s.n > 0), [rows]);
  const zoned = (title: string) => `${tx(title)} (${time.zoneName()})`;

  // the file is the server's (its one tabular writer): In and Out as instants with the client's offset, the zone named
  const exports = useCommand(
    'attendanceExports',
    () => null,
    (_, result) => saveFile(result as ServerFile),
  );
  const exporting = useSelector(exports, selectRunningCommand) !== null;
  const exportAs = (format: ExportFormat) => exports.send({ type: 'command.run', command: `daily|${format}|${date}|${teamId}` });

  return (
    <div className="gh-page" data-testid="daily-attendance">
      <PageHeader title={routeTitle(route)} icon={route.icon} description={routeDescription(route)} />
      <div className="gh-toolbar gh-attendance__toolbar">
        <ButtonGroup>
          <Button icon="chevron-left" aria-label={tx('Day before')} disabled={!valid} onClick={() => setDate(addDays(date, -1))} data-testid="day-before" />
          <DateField value={date} onChange={setDate} aria-label={tx('Day')} data-testid="attendance-day" />
          <Button icon="chevron-right" aria-label={tx('Day after')} disabled={!valid} onClick={() => setDate(addDays(date, 1))} data-testid="day-after" />
        </ButtonGroup>
        <Button text={tx('Today')} onClick={() => setDate(getClientToday())} />
        <TeamSelect value={teamId} onChange={setTeamId} />
        <span className="gh-toolbar__spacer" />
        <Button icon="refresh" aria-label={tx('Refresh')} onClick={day.reload} loading={day.busy} />
        <ExportButtons onExport={exportAs} disabled={!rows.length || exporting} testId="attendance-export" />
      </div>
      {counts.length > 0 && (
        <div className="gh-attendance__counts" data-testid="attendance-counts">
          {counts.map((c) => (
            <Tag key={c.value} intent={INTENT[c.value]} minimal round>
              {statusLabel(c.value)}: {c.n}
            </Tag>
          ))}
        </div>
      )}
      {!valid && (
        <Callout intent="warning" icon="calendar">
          {tx('Choose a day.')}
        </Callout>
      )}
      {day.failed && (
        <Callout intent="danger" icon="error" data-testid="attendance-error">
          {say(day.error ?? '')} <Button variant="minimal" text={tx('Try again')} onClick={day.reload} />
        </Callout>
      )}
      {valid && !day.output && !day.failed && <Spinner size={24} />}
      {day.output && rows.length === 0 && (
        <NonIdealState
          icon="people"
          title={tx('Nobody to show')}
          description={tx('No team has members you may see. Teams and their members are kept under Time and attendance → Teams.')}
        />
      )}
      {rows.length > 0 && (
        <TableScroll label={tx('Daily attendance')}>
          <HTMLTable compact striped className="gh-attendance__table" data-testid="attendance-table">
            <thead>
              <tr>
                <th>{tx('Name')}</th>
                <th>{tx('Status')}</th>
                <th>{zoned('In')}</th>
                <th>{zoned('Out')}</th>
                <th>{tx('Worked')}</th>
                <th>{tx('Overtime')}</th>
                <th>{tx('Shift')}</th>
                <th>{tx('Team')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.teamId}:${r.identityId}`} data-testid={`attendance-row-${r.identityId}`}>
                  <td>
                    <div>{r.name}</div>
                    {r.employeeNo && <div className="bp6-text-muted bp6-text-small">{r.employeeNo}</div>}
                  </td>
                  <td>
                    <Tag intent={INTENT[r.status]} minimal data-testid="attendance-status">
                      {statusLabel(r.status)}
                    </Tag>
                    {r.status === 'late' && <span className="gh-attendance__note">{tx('{n} min', { n: r.lateMinutes ?? 0 })}</span>}
                    {r.leave && <span className="gh-attendance__note">{r.leave}</span>}
                    {r.overtimeMinutes > 0 && (
                      <Tag intent="primary" minimal className="gh-ml" data-testid="attendance-overtime-tag">
                        {tx('Overtime')}
                      </Tag>
                    )}
                  </td>
                  <td>{at(r.firstIn)}</td>
                  <td>{at(r.lastOut)}</td>
                  <td>
                    <span data-testid="attendance-worked">{hours(r.workedMinutes)}</span>
                    {r.breakTakenMinutes > 0 && (
                      <div className="bp6-text-muted bp6-text-small" data-testid="attendance-break">
                        {tx('{t} break taken off', { t: hours(r.breakTakenMinutes) })}
                      </div>
                    )}
                  </td>
                  <td data-testid="attendance-overtime">{r.overtimeMinutes > 0 ? hours(r.overtimeMinutes) : ''}</td>
                  <td>{r.shiftStart ? `${r.shiftStart}–${r.shiftEnd}` : <span className="bp6-text-muted">—</span>}</td>
                  <td>{r.team}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </TableScroll>
      )}
      {day.output && day.output.zone !== time.zone && (
        <p className="bp6-text-muted gh-attendance__foot">{tx('Shifts are in the client’s time ({zone}); badge times in yours.', { zone: day.output.zone })}</p>
      )}
    </div>
  );
}
