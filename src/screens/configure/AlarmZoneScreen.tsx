// /configure/alarm-group/{id}/{armDisarmStatus}/alarm-zone [0.4.7.4] (issue 12): one alarm group as a zone — whether
// it is armed, since when and by whom, the inputs it watches — with Arm or Disarm. Disarming asks first (its inputs
// stop raising alarms). The address carries the state the link was made with; the screen shows the state the server
// answers, says so when they differ, and rewrites the address after every change. Changes made elsewhere (another
// console arming it) arrive through the catalogue's change notices.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Alert, Button, Callout, Card, H4, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { DESTINATIONS, PRIV, alarmGroupsResource, hasPrivilege, inputsResource } from '../../../contract';
import { commandMachine, selectCommandError, selectRunningCommand } from '../../../machines/command';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { armAlarmGroup, getAlarmGroup, optionsOf } from '../../api/endpoints';
import { useRouteInfo } from '../../app/RouteContext';
import { useSystemActor } from '../../app/useSystemActor';
import { routeDescription, routeTitle, say, tx, useLocale } from '../../i18n';
import { notify } from '../../system/notices';
import { PageHeader } from '../../ui/PageHeader';
import { useTime } from '../../ui/time';
import { useTask } from '../../ui/useTask';

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
  const group = useTask(() => getAlarmGroup(id), [id]);
  const reload = useRef(group.reload);
  reload.current = group.reload;
  const row = group.output;
  const inputs = useTask(row && row.inputIds.length ? () => optionsOf(inputsResource.api, { ids: row.inputIds }) : null, [row?.inputIds.join(',')]);

  const central = useSystemActor('socket.central');
  useEffect(() => {
    const sub = central.on('socket.message', (m) => { if (m.destination === `${DESTINATIONS.changes}/${alarmGroupsResource.name}`) reload.current(); });
    return () => sub.unsubscribe();
  }, [central]);

  const machine = useMemo(() => commandMachine.provide({
    actors: {
      run: fromPromise<unknown, { command: string }>(async ({ input }) => {
        const arm = input.command === 'arm';
        const after = await armAlarmGroup(id, arm);
        notify(arm
          ? { intent: 'warning', title: tx('Zone armed'), message: tx('{name} is armed: its inputs raise alarms.', { name: after.name }), timeoutMs: 4000 }
          : { intent: 'success', title: tx('Zone disarmed'), message: tx('{name} is disarmed: its inputs raise no alarms.', { name: after.name }), timeoutMs: 4000 });
        // the address follows the state: this view gives way to the one at the new address (its tab closes)
        const next = `/configure/alarm-group/${id}/${after.state}/alarm-zone`;
        if (next !== path) {
          navigate(next, { replace: true });
          const watch = tabs.subscribe((t) => {
            if (t.context.currentPath !== path) { watch.unsubscribe(); tabs.send({ type: 'tab.close', path }); }
          });
        } else reload.current();
        return after;
      }),
    },
  }), [id, navigate, path, tabs]);
  const commands = useActorRef(machine);
  const running = useSelector(commands, selectRunningCommand);
  const error = useSelector(commands, selectCommandError);
  const [asking, setAsking] = useState(false); // visual: the disarm question is open

  const header = <PageHeader title={row ? `${routeTitle(route)}: ${row.name}` : routeTitle(route)} icon={route.icon} description={routeDescription(route)}
    actions={<>
      <Button icon="refresh" variant="outlined" loading={group.status === 'active'} onClick={group.reload}>{tx('Refresh')}</Button>
      {canEdit && row && <Button icon="edit" variant="outlined" onClick={() => navigate(`/configure/alarm-group/edit/${row.id}`)} data-testid="alarm-zone-edit">{tx('Edit')}</Button>}
    </>} />;
  if (group.status === 'error' && !row) return <div className="gh-page-wrap">{header}<NonIdealState icon="search" title={tx('Alarm group not found')} description={tx('It may have been deleted, or it belongs to another client.')} action={<Link to="/configure/alarm-group">{tx('Back to the alarm groups')}</Link>} /></div>;
  if (!row) return <div className="gh-page-wrap">{header}<NonIdealState icon={<Spinner />} title={tx('Loading…')} /></div>;
  const armed = row.state === 'armed';
  return (
    <div className="gh-page-wrap">
      {header}
      <div className="gh-page" data-testid="alarm-zone">
        {asked && asked !== row.state && <Callout intent="primary" icon="info-sign" className="gh-mb" data-testid="alarm-zone-moved">{tx('This zone is {state} now (the link you followed said {asked}).', { state: tx(armed ? 'armed' : 'disarmed'), asked: tx(asked === 'armed' ? 'armed' : 'disarmed') })}</Callout>}
        {error && <Callout intent="danger" icon="error" className="gh-mb" data-testid="alarm-zone-error">{say(error)}</Callout>}
        <Card className="gh-mb">
          <div className="gh-alarm-zone__state">
            <Tag large round intent={armed ? 'danger' : 'success'} icon={armed ? 'shield' : 'unlock'} data-testid="alarm-zone-state">{tx(armed ? 'Armed' : 'Disarmed')}</Tag>
            <span className="bp6-text-muted" data-testid="alarm-zone-since">
              {row.stateChangedAt ? tx('since {when} by {who}', { when: time.dateTime(row.stateChangedAt, true), who: row.stateChangedBy ?? '—' }) : tx('never armed yet')}
            </span>
            <span className="gh-list__spacer" />
            {canArm && (armed
              ? <Button intent="success" icon="unlock" large loading={running === 'disarm'} disabled={running !== null} onClick={() => setAsking(true)} data-testid="alarm-zone-disarm">{tx('Disarm')}</Button>
              : <Button intent="danger" icon="shield" large loading={running === 'arm'} disabled={running !== null || row.inputIds.length === 0} onClick={() => commands.send({ type: 'command.run', command: 'arm' })} data-testid="alarm-zone-arm">{tx('Arm')}</Button>)}
          </div>
          <p style={{ marginTop: 12 }}>{armed ? tx('An input of this zone that becomes active raises an intrusion alarm (priority 1).') : tx('Its inputs raise no alarms while it is disarmed.')}</p>
          {row.description && <p className="bp6-text-muted">{row.description}</p>}
        </Card>
        <H4>{tx('Inputs')} ({row.inputIds.length})</H4>
        {row.inputIds.length === 0
          ? <NonIdealState icon="log-in" title={tx('No inputs')} description={tx('Add inputs to this alarm group before arming it.')} />
          : <HTMLTable compact striped className="gh-table-full" data-testid="alarm-zone-inputs">
              <tbody>{(inputs.output?.items ?? row.inputIds.map((x) => ({ id: x, label: `#${x}` }))).map((i) => <tr key={i.id}><td>{i.label}</td></tr>)}</tbody>
            </HTMLTable>}
      </div>
      <Alert isOpen={asking} intent="warning" icon="unlock" cancelButtonText={tx('Cancel')} confirmButtonText={tx('Disarm')}
        onCancel={() => setAsking(false)} onConfirm={() => { setAsking(false); commands.send({ type: 'command.run', command: 'disarm' }); }}>
        <p>{tx('Disarm {name}? Its inputs stop raising alarms until it is armed again.', { name: row.name })}</p>
      </Alert>
    </div>
  );
}
