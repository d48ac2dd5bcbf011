// The OSDP readers of a controller as its Gatehouse Edge last reported them (issue 46; docs/OSDP.md "The Hardware
// screens"): each reader's bus address and card reader, its link and secure channel (paired / secure / refused), tamper
// and power, its identity from PDID (vendor OUI, model, serial number, firmware), its capabilities from PDCAP and its
// error counters (CRC, NAK, timeouts, secure channel failures first). Re-pair, with a confirmation, for holders of edit
// card readers (the code the server's route checks). It reads itself again when the server pushes that its controller's
// readers changed (`/osdp-readers`: the edge reported, its link came or went), when the socket connects again (what
// was pushed meanwhile is missed), on Refresh, on a card reader's change notice and after a re-pair. Nothing polls. Shown on a controller's diagnostic and settings
// pages (every reader) and on a card reader's page (the one at its bus address: the catalogue's record panels).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Callout, Card, H5, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { DESTINATIONS, OsdpReadersNotice, messageOf, type OsdpReaderRow, type OsdpReadersAnswer, type OsdpRepairAnswer } from '../../contract';
import { selectCommandError, selectRunningCommand } from '../../machines/command';
import { CHANNEL_SHOWN, STATE_SHOWN, capabilitiesOf, countersOf, emptyReasonOf, mayRepair, needsLook, vendorOf } from '../../machines/osdpReaders.selectors';
import { selectHeldPrivileges } from '../../machines/session.selectors';
import { notify } from '../hooks/console';
import { useChangeNotices } from '../hooks/useChangeNotices';
import { useReading } from '../hooks/useReading';
import { useSystemActor } from '../hooks/useSystemActor';
import { useViewActor } from '../hooks/useViewActor';
import { say, t, tx, useLocale } from '../i18n';
import { useTime } from '../ui/time';
import { OsdpComsetDialog } from './OsdpComsetDialog';
import './osdp.css';

const OSDP_NOTICES = { destinations: [DESTINATIONS.osdpReaders] };
const pushedFor = (body: unknown, controllerId: number | null) => OsdpReadersNotice.is(body) && body.controllerId === controllerId;

export type OsdpReadersOf = { controllerId: number } | { cardReaderId: number };

export function OsdpReadersPanel({ of }: { of: OsdpReadersOf }) {
  useLocale();
  const time = useTime();
  const key = 'controllerId' in of ? `controller:${of.controllerId}` : `cardReader:${of.cardReaderId}`;
  const status = useReading<OsdpReadersAnswer>('osdpReadersReading', { input: of, key, notices: { resource: 'cardReaders' } });
  const { reload } = status;
  // pushed: this controller's readers changed (the answer names the controller, also on a card reader's page)
  const controllerId = 'controllerId' in of ? of.controllerId : (status.output?.controllerId ?? null);
  const reader = useMemo(() => ({ send: reload }), [reload]);
  useChangeNotices(OSDP_NOTICES, reader, (body) => (pushedFor(body, controllerId) ? 'read' : null));
  const central = useSystemActor('socket.central');
  useEffect(() => {
    const again = central.on('socket.resynced', reload);
    return () => again.unsubscribe();
  }, [central, reload]);
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const repairs = useViewActor('osdpRepairCommands');
  const running = useSelector(repairs, selectRunningCommand);
  const refused = useSelector(repairs, selectCommandError);
  // visual: the reader whose Re-pair is being confirmed
  const [asking, setAsking] = useState<OsdpReaderRow | null>(null);
  // visual: the reader whose address or speed is being changed (COMSET)
  const [moving, setMoving] = useState<OsdpReaderRow | null>(null);
  const closeMoving = useCallback(() => setMoving(null), []);
  useEffect(() => {
    const done = repairs.on('command.done', ({ result }) => {
      notify({ intent: 'success', title: tx('Re-pairing started'), message: say(messageOf(result as OsdpRepairAnswer)), timeoutMs: 5000 });
      reload();
    });
    const failed = repairs.on('command.failed', ({ error }) =>
      notify({ intent: 'danger', title: tx('Re-pair refused'), message: say(error), timeoutMs: 6000 }),
    );
    return () => {
      done.unsubscribe();
      failed.unsubscribe();
    };
  }, [repairs, reload]);

  const a = status.output;
  const empty = a ? emptyReasonOf(a) : null;
  const confirm = () => {
    if (asking?.cardReader) repairs.send({ type: 'command.run', command: String(asking.cardReader.id) });
    setAsking(null);
  };
  return (
    <Card className="gh-form__section gh-osdp" compact data-testid="osdp-readers">
      <div className="gh-osdp__head">
        <H5>{'controllerId' in of ? tx('OSDP readers') : tx('OSDP reader')}</H5>
        {a && a.edge && (
          <Tag minimal round intent={a.online ? 'success' : 'danger'} data-testid="osdp-edge-link">
            {tx(a.online ? 'Edge online' : 'Edge offline')}
          </Tag>
        )}
        <Button size="small" variant="minimal" icon="refresh" loading={status.busy} onClick={reload} data-testid="osdp-refresh">
          {tx('Refresh')}
        </Button>
      </div>
      {a?.reportedAt && (
        <p className="bp6-text-muted gh-osdp__when" data-testid="osdp-reported-at">
          {tx('Reported {at} ({zone})', { at: time.dateTime(a.reportedAt), zone: time.zoneName(a.reportedAt) })}
        </p>
      )}
      {status.failed && (
        <Callout intent="danger" icon="error" compact>
          {say(status.error ?? '')}
        </Callout>
      )}
      {!a && !status.failed && <Spinner size={20} />}
      {refused && (
        <Callout intent="danger" icon="error" compact className="gh-osdp__refused" data-testid="osdp-repair-refused">
          {tx('Re-pair refused')}: {say(refused)}
        </Callout>
      )}
      {empty && (
        <NonIdealState
          icon="mobile-phone"
          title={tx(
            empty === 'not-edge'
              ? 'Not a Gatehouse Edge controller'
              : 'controllerId' in of
                ? 'No OSDP readers reported by this controller'
                : 'No OSDP reader reported at this bus address',
          )}
          description={tx(
            empty === 'not-edge'
              ? 'OSDP readers are shown for controllers that run Gatehouse Edge (a controller key, docs/EDGE.md).'
              : empty === 'never-reported'
                ? 'Its edge has not reported its readers yet: they appear here once it connects.'
                : 'Its edge reports no reader at this address on its OSDP bus.',
          )}
        />
      )}
      {a && a.readers.length > 0 && (
        <div className="gh-osdp__readers">
          {a.readers.map((r) => (
            <Reader
              key={r.address}
              r={r}
              mayRepair={mayRepair(held, r)}
              repairing={running !== null && running === String(r.cardReader?.id)}
              onRepair={() => setAsking(r)}
              onMove={() => setMoving(r)}
            />
          ))}
        </div>
      )}
      <OsdpComsetDialog r={moving} onClose={closeMoving} onMoved={reload} />
      <Alert
        isOpen={asking !== null}
        intent="warning"
        icon="key"
        confirmButtonText={tx('Re-pair')}
        cancelButtonText={t('cancel')}
        onConfirm={confirm}
        onCancel={() => setAsking(null)}
      >
        <p>
          <strong>{tx('Re-pair {name} at bus address {address}?', { name: asking?.cardReader?.name ?? '', address: asking?.address ?? 0 })}</strong>
        </p>
        <p>
          {tx(
            'The controller forgets the reader’s key and pairs it again with the default key (install mode), then gives it a new key of its own. Do this only when the reader was replaced or reset to its factory key: until it is paired again it reads no cards. The action is audited.',
          )}
        </p>
      </Alert>
    </Card>
  );
}

function Reader({
  r,
  mayRepair: may,
  repairing,
  onRepair,
  onMove,
}: {
  r: OsdpReaderRow;
  mayRepair: boolean;
  repairing: boolean;
  onRepair: () => void;
  onMove: () => void;
}) {
  const channel = CHANNEL_SHOWN[r.channel];
  const state = STATE_SHOWN[r.state];
  const fact = (label: string, value: React.ReactNode, testId?: string) => (
    <div className="gh-osdp__fact">
      <dt className="bp6-text-muted">{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
  const caps = capabilitiesOf(r);
  return (
    <section
      className={`gh-osdp__reader${needsLook(r) ? ' gh-osdp__reader--look' : ''}`}
      data-testid="osdp-reader"
      data-address={r.address}
      data-channel={r.channel}
      aria-label={tx('OSDP reader at bus address {address}', { address: r.address })}
    >
      <div className="gh-osdp__title">
        <strong>{tx('Bus address {address}', { address: r.address })}</strong>
        <span className={r.cardReader ? undefined : 'bp6-text-muted'}>{r.cardReader ? r.cardReader.name : tx('No card reader at this address')}</span>
      </div>
      <div className="gh-osdp__tags">
        <Tag round intent={state.intent} data-testid="osdp-state">
          {tx(state.label)}
        </Tag>
        <Tag
          round
          minimal
          intent={channel.intent}
          icon={r.channel === 'secure' ? 'lock' : r.channel === 'refused' ? 'disable' : 'unlock'}
          title={tx(channel.help)}
          data-testid="osdp-channel"
        >
          {tx('Secure channel: {state}', { state: tx(channel.label) })}
        </Tag>
        {r.tamper && (
          <Tag round intent="danger" icon="warning-sign">
            {tx('Tamper')}
          </Tag>
        )}
        {r.power && (
          <Tag round intent="danger" icon="offline">
            {tx('Power failure')}
          </Tag>
        )}
      </div>
      <p className="bp6-text-muted gh-osdp__help">{tx(channel.help)}</p>
      {r.reason && (
        <p className="gh-osdp__reason" data-testid="osdp-reason">
          {say(r.reason)}
        </p>
      )}
      {r.identity ? (
        <dl className="gh-osdp__facts" data-testid="osdp-identity">
          {fact(tx('Vendor (OUI)'), vendorOf(r))}
          {fact(tx('Model'), tx('{model}, version {version}', { model: r.identity.model, version: r.identity.version }))}
          {fact(tx('Serial number'), r.identity.serial)}
          {fact(tx('Firmware'), r.identity.firmware)}
          {r.baud !== undefined && fact(tx('Speed'), tx('{baud} baud', { baud: r.baud }), 'osdp-baud')}
        </dl>
      ) : (
        <p className="bp6-text-muted">{tx('No identity reported yet (PDID).')}</p>
      )}
      <div className="gh-osdp__caps" data-testid="osdp-capabilities">
        <span className="bp6-text-muted">{tx('Capabilities')}</span>
        {caps.length === 0 ? (
          <span className="bp6-text-muted"> —</span>
        ) : (
          caps.map((c) => (
            <Tag
              key={c.function}
              minimal
              round
              title={c.bytes === null ? tx('Compliance level {level}, {count} of them', { level: c.compliance, count: c.count }) : undefined}
            >
              {c.bytes !== null ? `${tx(c.label)}: ${tx('{n} bytes', { n: c.bytes })}` : c.count > 1 ? `${tx(c.label)} ×${c.count}` : tx(c.label)}
            </Tag>
          ))
        )}
      </div>
      <dl className="gh-osdp__counters" data-testid="osdp-counters">
        {countersOf(r).map((c) => (
          <div key={c.key} className={`gh-osdp__counter${c.alert ? ' gh-osdp__counter--alert' : ''}`} data-counter={c.key}>
            <dt>{tx(c.label)}</dt>
            <dd>{c.value}</dd>
          </div>
        ))}
      </dl>
      {may && (
        <div className="gh-osdp__actions">
          <Button intent="warning" icon="key" loading={repairing} onClick={onRepair} data-testid="osdp-repair">
            {tx('Re-pair')}
          </Button>
          <Button icon="exchange" disabled={r.state !== 'online'} onClick={onMove} data-testid="osdp-comset">
            {tx('Change address or speed')}
          </Button>
        </div>
      )}
    </section>
  );
}
