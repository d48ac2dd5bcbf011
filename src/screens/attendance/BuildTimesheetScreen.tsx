// Build Timesheet [3.3] (§2 Attendance "/build/timesheet"): write a period's days into the timesheet as daily
// attendance counts them (up to today), for payroll; days HR amended [3.4] are kept as amended. The period starts as
// this month up to yesterday, in the user's zone. After a build it says what it wrote and leads to the timesheet.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Callout, Card, FormGroup } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { TOAST_MS, hasPrivilege, PRIV, type TimesheetBuildResult, type Violation } from '../../../contract';
import { selectCommandError, selectCommandResult, selectRunningCommand } from '../../../machines/command';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { useRouteInfo } from '../../app/RouteContext';
import { useSystemActor } from '../../hooks/useSystemActor';
import { useViewActor } from '../../hooks/useViewActor';
import { routeDescription, routeTitle, say, tx, useLocale } from '../../i18n';
import { sayViolation } from '../../resources/formMessages';
import { notify } from '../../hooks/console';
import { PageHeader } from '../../ui/PageHeader';
import { getClientToday } from '../../ui/time';
import { TeamSelect, addDays, periodMessage } from './parts';
import { DateField } from '../../ui/DateField';

export function BuildTimesheetScreen() {
  const { route } = useRouteInfo();
  const locale = useLocale();
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const commands = useViewActor('timesheetBuildCommands');
  const running = useSelector(commands, selectRunningCommand) !== null;
  const failure = useSelector(commands, selectCommandError);
  const result = useSelector(commands, selectCommandResult) as { built?: TimesheetBuildResult; violations?: Violation[] } | null;
  // visual: the period and team as typed (kept when the server refuses them)
  const [to, setTo] = useState(() => addDays(getClientToday(), -1));
  const [from, setFrom] = useState(() => `${addDays(getClientToday(), -1).slice(0, 8)}01`);
  const [teamId, setTeamId] = useState('');
  // a refused day in the operator's language, by the violation's key when it has one (issue 48)
  const onField = (f: string) => {
    const v = result?.violations?.find((x) => x.field === f);
    return v ? sayViolation(v, locale) : undefined;
  };
  const problem = periodMessage(from, to);
  useEffect(() => {
    const sub = commands.on('command.done', (e) => {
      const built = (e.result as { built?: TimesheetBuildResult }).built;
      if (built)
        notify({ intent: 'success', title: tx('Timesheet built'), message: tx('{n} days of staff written.', { n: built.written }), timeoutMs: TOAST_MS });
    });
    return () => sub.unsubscribe();
  }, [commands]);

  return (
    <div className="gh-page-wrap" data-testid="build-timesheet">
      <PageHeader title={routeTitle(route)} icon={route.icon} description={routeDescription(route)} />
      <Card className="gh-form__section" compact>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!problem) commands.send({ type: 'command.run', command: 'build', input: { from, to, ...(teamId ? { teamId: Number(teamId) } : {}) } });
          }}
        >
          <p className="bp6-text-muted">
            {tx('Each day of the period up to today is written as daily attendance counts it. Days already amended are kept as they are.')}
          </p>
          <div className="gh-form__grid">
            <FormGroup label={tx('First day')} labelFor="build-from" intent={onField('from') ? 'danger' : 'none'} helperText={onField('from')}>
              <DateField id="build-from" value={from} onChange={setFrom} />
            </FormGroup>
            <FormGroup label={tx('Last day')} labelFor="build-to" intent={onField('to') ? 'danger' : 'none'} helperText={onField('to')}>
              <DateField id="build-to" value={to} onChange={setTo} />
            </FormGroup>
            <FormGroup label={tx('Team')}>
              <TeamSelect value={teamId} onChange={setTeamId} />
            </FormGroup>
          </div>
          {problem && (
            <Callout intent="warning" icon="calendar" className="gh-form__error">
              {problem}
            </Callout>
          )}
          {failure && (
            <Callout intent="danger" icon="error" className="gh-form__error">
              {say(failure)}
            </Callout>
          )}
          {result?.built && (
            <Callout intent="success" icon="tick" className="gh-form__error" data-testid="build-result">
              {tx('{days} days built: {n} timesheet days written, {kept} amended days kept.', {
                days: result.built.days,
                n: result.built.written,
                kept: result.built.keptAmended,
              })}
              {hasPrivilege(held, [PRIV.amendTimesheet]) && (
                <>
                  {' '}
                  <Link to="/attendance/amend-timesheet">{tx('Open the timesheet')}</Link>
                </>
              )}
            </Callout>
          )}
          <div className="gh-form__actions">
            <Button type="submit" intent="primary" icon="build" text={tx('Build')} loading={running} disabled={!!problem} data-testid="build-run" />
          </div>
        </form>
      </Card>
    </div>
  );
}
