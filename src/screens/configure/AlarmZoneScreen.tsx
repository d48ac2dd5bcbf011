// /configure/alarm-group/{id}/{armDisarmStatus}/alarm-zone [0.4.7.4] (issue 12): one alarm group as a zone — whether
// it is armed, since when and by whom, the inputs it watches — with Arm or Disarm. Disarming asks first (its inputs
// stop raising alarms). The address carries the state the link was made with; the screen shows the state the server
// answers, says so when they differ, and rewrites the address after every change. Changes made elsewhere (another
// console arming it) arrive through the catalogue's change notices.
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Callout, Card, H4, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { ConfirmAlert } from '../../ui/ConfirmAlert';
import { useSelector } from '@xstate/react';
import { PRIV, alarmGroupsResource, hasPrivilege, inputsResource } from '../../../contract';
import { selectCommandError, selectRunningCommand } from '../../../machines/command';
import { labelOf, selectEpoch, selectLabelsOf, selectNaming } from '../../../machines/options.selectors';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import type { AlarmGroupRow } from '../../hooks/answers';
import { useReading } from '../../hooks/useReading';
import { useViewActor } from '../../hooks/useViewActor';
import { useRouteInfo } from '../../app/RouteContext';
import { useSystemActor } from '../../hooks/useSystemActor';
import { routeDescription, routeTitle, say, tx, useLocale } from '../../i18n';
import { notify } from '../../hooks/console';
import { PageHeader } from '../../ui/PageHeader';
import { useTime } from '../../ui/time';
import './alarmZone.css';

export function AlarmZoneScreen() {
  useLocale();
  const { route, params, path } = useRouteInfo();
  const tabs = useSystemActor('tabs');
  const navigate = useNavigate();
  const time = useTime();
  const id = Number(params.id);
  const asked = params.armDisarmStatus;
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const canArm = hasPrivilege(held, [PRIV.alarmGroups.arm]);
  const canEdit = hasPrivilege(held, [PRIV.alarmGroups.edit]);
  // read again on every change notice of the zones, and after every reconnect of the live connection
  const group = useReading<AlarmGroupRow>('alarmGroupReading', { input: id, key: id, notices: { resource: alarmGroupsResource.name } });
  const { reload } = group;
  const row = group.output;
  // the inputs' names, through the options actor (batched with every other look-up of the page)
  const options = useSystemActor('options');
  const inputIds = useMemo(() => row?.inputIds ?? [], [row]);
  const epoch = useSelector(options, selectEpoch);
  useEffect(() => {
    if (inputIds.length) options.send({ type: 'options.label', api: inputsResource.api, ids: inputIds });
  }, [options, inputIds, epoch]);
  const inputLabels = useSelector(
    options,
    useMemo(() => selectLabelsOf(inputsResource.api), []),
  );
  const naming = useSelector(
    options,
    useMemo(() => selectNaming(inputsResource.api, inputIds), [inputIds]),
  );

  const commands = useViewActor('armCommands');
  useEffect(() => {
    const sub = commands.on('command.done', ({ command, result }) => {
      const arm = command.endsWith('|arm');
      const after = result as AlarmGroupRow;
      notify(
        arm
          ? { intent: 'warning', title: tx('Zone armed'), message: tx('{name} is armed: its inputs raise alarms.', { name: after.name }), timeoutMs: 4000 }
          : {
              intent: 'success',
              title: tx('Zone disarmed'),
              message: tx('{name} is disarmed: its inputs raise no alarms.', { name: after.name }),
              timeoutMs: 4000,
            },
      );
      // the address follows the state: this view gives way to the one at the new address (its tab closes)
      const next = `/configure/alarm-group/${id}/${after.state}/alarm-zone`;
      if (next !== path) {
        navigate(next, { replace: true });
        const watch = tabs.subscribe((t) => {
          if (t.context.currentPath !== path) {
            watch.unsubscribe();
            tabs.send({ type: 'tab.close', path });
          }
        });
      } else reload();
    });
    return () => sub.unsubscribe();
  }, [commands, id, navigate, path, tabs, reload]);
  const running = useSelector(commands, selectRunningCommand);
  const error = useSelector(commands, selectCommandError);
  const [asking, setAsking] = useState(false); // visual: the disarm question is open

  const header = (
    <PageHeader
      title={row ? `${routeTitle(route)}: ${row.name}` : routeTitle(route)}
      icon={route.icon}
      description={routeDescription(route)}
      actions={
        <>
          <Button icon="refresh" variant="outlined" loading={group.busy} onClick={reload}>
            {tx('Refresh')}
          </Button>
          {canEdit && row && (
            <Button icon="edit" variant="outlined" onClick={() => navigate(`/configure/alarm-group/edit/${row.id}`)} data-testid="alarm-zone-edit">
              {tx('Edit')}
            </Button>
          )}
        </>
      }
    />
  );
  if (group.failed && !row)
    return (
      <div className="gh-page-wrap">
        {header}
        <NonIdealState
          icon="search"
          title={tx('Alarm group not found')}
          description={tx('It may have been deleted, or it belongs to another client.')}
          action={<Link to="/configure/alarm-group">{tx('Back to the alarm groups')}</Link>}
        />
      </div>
    );
  if (!row)
    return (
      <div className="gh-page-wrap">
        {header}
        <NonIdealState icon={<Spinner />} title={tx('Loading…')} />
      </div>
    );
  const armed = row.state === 'armed';
  return (
    <div className="gh-page-wrap">
      {header}
      <div className="gh-page" data-testid="alarm-zone">
        {asked && asked !== row.state && (
          <Callout intent="primary" icon="info-sign" className="gh-mb" data-testid="alarm-zone-moved">
            {tx('This zone is {state} now (the link you followed said {asked}).', {
              state: tx(armed ? 'armed' : 'disarmed'),
              asked: tx(asked === 'armed' ? 'armed' : 'disarmed'),
            })}
          </Callout>
        )}
        {error && (
          <Callout intent="danger" icon="error" className="gh-mb" data-testid="alarm-zone-error">
            {say(error)}
          </Callout>
        )}
        <Card className="gh-mb">
          <div className="gh-alarm-zone__state">
            <Tag large round intent={armed ? 'danger' : 'success'} icon={armed ? 'shield' : 'unlock'} data-testid="alarm-zone-state">
              {tx(armed ? 'Armed' : 'Disarmed')}
            </Tag>
            <span className="bp6-text-muted" data-testid="alarm-zone-since">
              {row.stateChangedAt
                ? tx('since {when} by {who}', { when: time.dateTime(row.stateChangedAt, true), who: row.stateChangedBy ?? '—' })
                : tx('never armed yet')}
            </span>
            <span className="gh-list__spacer" />
            {canArm &&
              (armed ? (
                <Button
                  intent="success"
                  icon="unlock"
                  large
                  loading={running === `${id}|disarm`}
                  disabled={running !== null}
                  onClick={() => setAsking(true)}
                  data-testid="alarm-zone-disarm"
                >
                  {tx('Disarm')}
                </Button>
              ) : (
                <Button
                  intent="danger"
                  icon="shield"
                  large
                  loading={running === `${id}|arm`}
                  disabled={running !== null || row.inputIds.length === 0}
                  onClick={() => commands.send({ type: 'command.run', command: `${id}|arm` })}
                  data-testid="alarm-zone-arm"
                >
                  {tx('Arm')}
                </Button>
              ))}
          </div>
          <p style={{ marginTop: 12 }}>
            {armed
              ? tx('An input of this zone that becomes active raises an intrusion alarm (priority 1).')
              : tx('Its inputs raise no alarms while it is disarmed.')}
          </p>
          {row.description && <p className="bp6-text-muted">{row.description}</p>}
        </Card>
        <H4>
          {tx('Inputs')} ({row.inputIds.length})
        </H4>
        {row.inputIds.length === 0 ? (
          <NonIdealState icon="log-in" title={tx('No inputs')} description={tx('Add inputs to this alarm group before arming it.')} />
        ) : (
          <HTMLTable compact striped className="gh-table-full" data-testid="alarm-zone-inputs">
            <tbody>
              {row.inputIds.map((x) => (
                <tr key={x}>
                  <td>{labelOf(inputLabels, naming, x)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </div>
      <ConfirmAlert
        open={asking}
        icon="unlock"
        cancel={tx('Cancel')}
        confirm={tx('Disarm')}
        onClose={() => setAsking(false)}
        onConfirm={() => commands.send({ type: 'command.run', command: `${id}|disarm` })}
      >
        <p>{tx('Disarm {name}? Its inputs stop raising alarms until it is armed again.', { name: row.name })}</p>
      </ConfirmAlert>
    </div>
  );
}
