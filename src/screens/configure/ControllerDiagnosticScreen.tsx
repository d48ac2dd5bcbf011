// /hardware/controllers/diagnostic/{ipAddress} [0.5.6.4] (issue 12): one controller as it reports itself — online or
// offline, for how long, its firmware, what is wired to it, when it was last heard — with its latest events and a
// Ping that says whether it answers and how fast (the last five kept on screen). It reads itself again every 10 s.
// Issue 46: its OSDP readers as its Gatehouse Edge reports them (src/resources/OsdpReadersPanel.tsx), with Re-pair.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Card, H4, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { formatDistanceStrict } from 'date-fns';
import { PRIV, hasPrivilege, type ControllerDiagnostic, type PingAnswer } from '../../../contract';
import { selectRunningCommand } from '../../../machines/command';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { useReading } from '../../hooks/useReading';
import { useViewActor } from '../../hooks/useViewActor';
import { useRouteInfo } from '../../app/RouteContext';
import { useSystemActor } from '../../hooks/useSystemActor';
import { routeDescription, routeTitle, tx, useLocale } from '../../i18n';
import { PageHeader } from '../../ui/PageHeader';
import { useTime } from '../../ui/time';
import { OsdpReadersPanel } from '../../resources/OsdpReadersPanel';
import './controllerDiagnostic.css';

export function ControllerDiagnosticScreen() {
  useLocale();
  const { route, params } = useRouteInfo();
  const ip = params.ipAddress ?? '';
  const navigate = useNavigate();
  const time = useTime();
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const diag = useReading<ControllerDiagnostic>('controllerDiagnosticReading', { input: ip, key: ip });
  const { reload } = diag;
  useEffect(() => {
    const t = setInterval(reload, 10_000);
    return () => clearInterval(t);
  }, [reload]);
  const [pings, setPings] = useState<PingAnswer[]>([]); // visual: this visit's ping answers, newest first
  const commands = useViewActor('pingCommands');
  useEffect(() => {
    const sub = commands.on('command.done', ({ result }) => setPings((p) => [result as PingAnswer, ...p].slice(0, 5)));
    return () => sub.unsubscribe();
  }, [commands]);
  const running = useSelector(commands, selectRunningCommand);
  const [now, setNow] = useState(Date.now()); // visual: the clock of "3 s ago"
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);

  const d = diag.output;
  const header = (
    <PageHeader
      title={d ? `${routeTitle(route)}: ${d.controller.name}` : routeTitle(route)}
      icon={route.icon}
      description={routeDescription(route)}
      actions={
        <>
          <Button icon="refresh" variant="outlined" loading={diag.busy} onClick={reload}>
            {tx('Refresh')}
          </Button>
          {d && hasPrivilege(held, [PRIV.controllers.edit]) && (
            <Button
              icon="cog"
              variant="outlined"
              onClick={() => navigate(`/hardware/controllers/settings/${d.controller.id}`)}
              data-testid="diagnostic-settings"
            >
              {tx('Settings')}
            </Button>
          )}
        </>
      }
    />
  );
  if (diag.failed && !d)
    return (
      <div className="gh-page-wrap">
        {header}
        <NonIdealState icon="search" title={tx('No controller at {ip}', { ip })} description={tx('Check the address on the controllers list.')} />
      </div>
    );
  if (!d)
    return (
      <div className="gh-page-wrap">
        {header}
        <NonIdealState icon={<Spinner />} title={tx('Loading…')} />
      </div>
    );
  const online = d.controller.status === 'online';
  const fact = (label: string, value: React.ReactNode, testId?: string) => (
    <div className="gh-diag__fact">
      <div className="bp6-text-muted">{tx(label)}</div>
      <div data-testid={testId}>{value}</div>
    </div>
  );
  return (
    <div className="gh-page-wrap">
      {header}
      <div className="gh-page" data-testid="controller-diagnostic">
        <Card className="gh-mb">
          <div className="gh-diag__facts">
            {fact(
              'Status',
              <Tag large round intent={online ? 'success' : 'danger'} icon={online ? 'tick-circle' : 'offline'}>
                {tx(online ? 'Online' : 'Offline')}
              </Tag>,
              'diagnostic-status',
            )}
            {fact('IP address', d.controller.ipAddress)}
            {fact('Online for', d.controller.onlineSince ? formatDistanceStrict(Date.parse(d.controller.onlineSince), now) : '—', 'diagnostic-uptime')}
            {fact('Firmware', d.controller.firmware ?? '—', 'diagnostic-firmware')}
            {fact('Division', d.controller.divisionName ?? '—')}
            {fact('Last heard', d.lastHeardAt ? time.ago(d.lastHeardAt, Math.max(now, Date.parse(d.lastHeardAt))) : '—')}
          </div>
          <div className="gh-diag__facts">
            {fact('Doors', d.wiring.doors, 'diagnostic-doors')}
            {fact('Card readers', d.wiring.readers)}
            {fact('Inputs', d.wiring.inputs)}
            {fact('Outputs', d.wiring.outputs)}
          </div>
        </Card>
        <Card className="gh-mb">
          <div className="gh-diag__ping">
            <Button
              icon="pulse"
              intent="primary"
              loading={running !== null}
              onClick={() => commands.send({ type: 'command.run', command: ip })}
              data-testid="diagnostic-ping"
            >
              {tx('Ping')}
            </Button>
            <ul className="gh-diag__pings" data-testid="diagnostic-pings">
              {pings.map((p) => (
                <li key={p.at}>
                  {p.reachable ? tx('Reply in {ms} ms', { ms: p.ms ?? 0 }) : tx('No reply')} <span className="bp6-text-muted">· {time.dateTime(p.at)}</span>
                </li>
              ))}
            </ul>
          </div>
        </Card>
        {hasPrivilege(held, [PRIV.controllers.view]) && (
          <div className="gh-mb">
            <OsdpReadersPanel of={{ controllerId: d.controller.id }} />
          </div>
        )}
        <H4>{tx('Latest events')}</H4>
        {d.events.length === 0 ? (
          <p className="bp6-text-muted">{tx('Nothing heard from it yet.')}</p>
        ) : (
          <HTMLTable compact striped className="gh-table-full" data-testid="diagnostic-events">
            <thead>
              <tr>
                <th>{tx('Time')}</th>
                <th>{tx('Event')}</th>
              </tr>
            </thead>
            <tbody>
              {d.events.map((e) => (
                <tr key={e.id} data-testid="diagnostic-event">
                  <td className="gh-nowrap">{time.dateTime(e.time)}</td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </div>
    </div>
  );
}
