// /hardware/controller-hub [0.5.7.0] (issue 12): every controller of the client at a glance — its live status (the
// `/hbcontroller` heart-beats over the stored one), since when it is online, its firmware, its division and what is
// wired to it — with the offline ones first and counted, the firmware versions in use, a filter by name or address,
// and links to each controller's diagnostic [0.5.6.4] and settings [0.5.6.2] for whoever may open them.
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Card, H5, InputGroup, NonIdealState, Spinner, Switch, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { hasPrivilege, PRIV, type ControllerHubRow } from '../../../contract';
import { selectControllers } from '../../../machines/hardwareStatus.selectors';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { useReading } from '../../hooks/useReading';
import { useRouteInfo } from '../../app/RouteContext';
import { useSystemActor } from '../../hooks/useSystemActor';
import { routeDescription, routeTitle, tx, useLocale } from '../../i18n';
import { PageHeader } from '../../ui/PageHeader';
import { useTime } from '../../ui/time';
import './controllerHub.css';

export function ControllerHubScreen() {
  const { route } = useRouteInfo();
  useLocale();
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
  const mayDiagnose = hasPrivilege(held, [PRIV.controllers.diagnostics]);
  const mayEdit = hasPrivilege(held, [PRIV.controllers.edit]);
  const hub = useReading<{ items: ControllerHubRow[] }>('controllerHubReading');
  const beats = useSelector(useSystemActor('hardwareStatus'), selectControllers);
  const time = useTime();
  // visual: the search typed and the switch, filtering the controllers shown
  const [text, setText] = useState('');
  const [offlineOnly, setOfflineOnly] = useState(false);

  const rows = useMemo(() => {
    const live = new Map(beats.map((b) => [String(b.id), b.status]));
    return (hub.output?.items ?? []).map((c) => ({ ...c, status: live.get(String(c.id)) ?? c.status, live: live.has(String(c.id)) }));
  }, [hub.output, beats]);
  const offline = rows.filter((c) => c.status !== 'online');
  const firmware = useMemo(() => {
    const m = new Map<string, number>();
    for (const c of rows) m.set(c.firmware ?? tx('unknown'), (m.get(c.firmware ?? tx('unknown')) ?? 0) + 1);
    return [...m].sort((a, b) => b[1] - a[1]);
  }, [rows]);
  const q = text.trim().toLowerCase();
  const shown = rows
    .filter((c) => (!offlineOnly || c.status !== 'online') && (!q || c.name.toLowerCase().includes(q) || c.ipAddress.includes(q)))
    .sort((a, b) => Number(a.status === 'online') - Number(b.status === 'online') || a.name.localeCompare(b.name));

  return (
    <div className="gh-page" data-testid="controller-hub">
      <PageHeader
        title={routeTitle(route)}
        icon="data-connection"
        description={routeDescription(route)}
        actions={
          <Button icon="refresh" variant="outlined" loading={hub.busy} onClick={hub.reload}>
            {tx('Refresh')}
          </Button>
        }
      />
      {hub.busy && !hub.output && <NonIdealState icon={<Spinner />} title={tx('Loading controllers…')} />}
      {hub.output && rows.length === 0 && <NonIdealState icon="desktop" title={tx('No controllers')} description={tx('This client has no controllers yet.')} />}
      {rows.length > 0 && (
        <>
          <div className="gh-hub__summary" data-testid="hub-summary">
            <Tag round large intent={offline.length ? 'danger' : 'success'} icon={offline.length ? 'offline' : 'tick-circle'} data-testid="hub-offline">
              {offline.length ? tx('{n} of {total} offline', { n: offline.length, total: rows.length }) : tx('All {total} online', { total: rows.length })}
            </Tag>
            <span className="gh-hub__firmware">
              {tx('Firmware')}:{' '}
              {firmware.map(([v, n]) => (
                <Tag key={v} minimal round className="gh-mr" data-testid="hub-firmware">
                  {v} × {n}
                </Tag>
              ))}
            </span>
          </div>
          <div className="gh-hub__tools">
            <InputGroup
              type="search"
              leftIcon="search"
              placeholder={tx('Name or address')}
              aria-label={tx('Filter controllers')}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
            />
            <Switch checked={offlineOnly} onChange={(e) => setOfflineOnly(e.currentTarget.checked)} label={tx('Offline only')} data-testid="hub-offline-only" />
          </div>
          {shown.length === 0 && <NonIdealState icon="search" title={tx('No controller matches')} />}
          <div className="gh-hub__grid">
            {shown.map((c) => (
              <ControllerCard
                key={c.id}
                c={c}
                live={c.live}
                mayDiagnose={mayDiagnose}
                mayEdit={mayEdit}
                ago={(iso) => time.ago(iso, Math.max(Date.now(), Date.parse(iso)))}
              />
            ))}
          </div>
        </>
      )}
    </div>
  );
}

function ControllerCard({
  c,
  live,
  mayDiagnose,
  mayEdit,
  ago,
}: {
  c: ControllerHubRow;
  live: boolean;
  mayDiagnose: boolean;
  mayEdit: boolean;
  ago: (iso: string) => string;
}) {
  const online = c.status === 'online';
  return (
    <Card compact className={`gh-hub__card${online ? '' : ' gh-hub__card--offline'}`} data-testid="hub-controller" aria-label={c.name} data-status={c.status}>
      <div className="gh-hub__head">
        <H5>{c.name}</H5>
        <Tag
          intent={online ? 'success' : 'danger'}
          icon={online ? 'tick-circle' : 'offline'}
          minimal={online}
          title={live ? tx('Live') : tx('Last stored state')}
          data-testid="hub-status"
        >
          {online ? tx('Online') : tx('Offline')}
        </Tag>
      </div>
      <dl className="gh-hub__facts">
        <dt>{tx('Address')}</dt>
        <dd className="bp6-monospace-text">{c.ipAddress}</dd>
        <dt>{tx('Online since')}</dt>
        <dd>{online && c.onlineSince ? ago(c.onlineSince) : '—'}</dd>
        <dt>{tx('Firmware')}</dt>
        <dd>{c.firmware ?? '—'}</dd>
        <dt>{tx('Division')}</dt>
        <dd>{c.divisionName ?? '—'}</dd>
        <dt>{tx('Wired')}</dt>
        <dd>
          {tx('{doors} doors, {readers} readers, {inputs} inputs, {outputs} outputs, {interfaces} interfaces', {
            doors: c.doors,
            readers: c.readers,
            inputs: c.inputs,
            outputs: c.outputs,
            interfaces: c.interfaces,
          })}
        </dd>
      </dl>
      <div className="gh-hub__links">
        {mayDiagnose && (
          <Link to={`/hardware/controllers/diagnostic/${c.ipAddress}`} className="bp6-button bp6-small bp6-outlined" data-testid="hub-diagnostic">
            {tx('Diagnostic')}
          </Link>
        )}
        {mayEdit && (
          <Link to={`/hardware/controllers/settings/${c.id}`} className="bp6-button bp6-small bp6-minimal">
            {tx('Settings')}
          </Link>
        )}
      </div>
    </Card>
  );
}
