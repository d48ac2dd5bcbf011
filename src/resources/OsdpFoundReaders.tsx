// Hardware → Interface → pre-add (issue 46): the OSDP readers each connected Gatehouse Edge controller finds on its bus
// at an address with no card reader yet (PDID: vendor, model, serial number, firmware; PDCAP: its capabilities by the
// standard's names), at its line's speed or at another. Add opens the card reader form with the controller, the bus
// address and a name filled in; once it is saved, the edge moves a reader found at another speed to its line's
// (osdp_COMSET), pairs the reader it found (install mode: SCBK-D, then a key of its own) and the card reader's page
// shows it.
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Callout, Card, H5, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { PRIV, cardReadersResource, messageOf, type OsdpFoundAnswer, type OsdpFoundReader, type OsdpScanScope } from '../../contract';
import { capabilitiesOf, vendorOf } from '../../machines/osdpReaders.selectors';
import { selectHeldPrivileges } from '../../machines/session.selectors';
import { useReading } from '../hooks/useReading';
import { useSystemActor } from '../hooks/useSystemActor';
import { say, tx, useLocale } from '../i18n';
import { TableScroll } from '../ui/TableScroll';
import './osdp.css';

export function OsdpFoundReaders() {
  useLocale();
  const navigate = useNavigate();
  // visual: how wide the scan is (0–15 at once; the whole range or every speed when the installer asks)
  const [scope, setScope] = useState<OsdpScanScope>('quick');
  const found = useReading<OsdpFoundAnswer>('osdpFoundReading', { input: { scope }, key: scope });
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const mayAdd = held.has(PRIV.cardReaders.add);
  const a = found.output;
  const add = (r: OsdpFoundReader) => {
    const q = new URLSearchParams({ controllerId: String(r.controllerId), address: String(r.address), name: `${r.controllerName} OSDP ${r.address}` });
    navigate(`${cardReadersResource.route}/add?${q.toString()}`);
  };
  const refused = a?.controllers.filter((c) => !c.ok) ?? [];
  return (
    <Card className="gh-mb" data-testid="osdp-found">
      <div className="gh-osdp__head">
        <H5>{tx('OSDP readers found on the edges’ buses')}</H5>
        <Button size="small" variant="minimal" icon="search" loading={found.busy} onClick={found.reload} data-testid="osdp-scan">
          {tx('Scan again')}
        </Button>
      </div>
      <p className="bp6-text-muted gh-osdp__when">
        {tx(
          scope === 'quick'
            ? 'Each connected Gatehouse Edge controller asks bus addresses 0–15 that have no card reader. Add one to pair it.'
            : scope === 'all'
              ? 'Each connected Gatehouse Edge controller asks every bus address (0–126) that has no card reader, between its readers’ polls: about 30 s.'
              : 'Each connected Gatehouse Edge controller asks every bus address at its line’s speed, then tries each other speed and asks every address where a reader answered: up to 90 s.',
        )}
      </p>
      <div className="gh-osdp__actions gh-osdp__scope">
        <Button size="small" disabled={found.busy || scope === 'all'} onClick={() => setScope('all')} data-testid="osdp-scan-all">
          {tx('Scan all addresses (0–126)')}
        </Button>
        <Button size="small" disabled={found.busy || scope === 'speeds'} onClick={() => setScope('speeds')} data-testid="osdp-scan-speeds">
          {tx('Scan all addresses at every speed')}
        </Button>
      </div>
      {found.failed && (
        <Callout intent="danger" icon="error" compact>
          {say(found.error ?? '')}
        </Callout>
      )}
      {!a && !found.failed && <Spinner size={20} />}
      {refused.map((c) => (
        <Callout key={c.controllerId} intent="warning" icon="warning-sign" compact className="gh-osdp__refused">
          {c.controllerName}: {say(messageOf(c))}
        </Callout>
      ))}
      {a && a.items.length === 0 && (
        <NonIdealState
          icon="tick-circle"
          title={tx(a.controllers.length ? 'No new OSDP reader answered' : 'No Gatehouse Edge controller is connected')}
          description={tx(
            a.controllers.length ? 'Check the reader’s wiring, bus address and speed, then scan again.' : 'Only a connected edge controller can scan its bus.',
          )}
        />
      )}
      {a && a.items.length > 0 && (
        <TableScroll label={tx('OSDP readers found on the edges’ buses')}>
          <HTMLTable compact striped className="gh-table-full">
            <thead>
              <tr>
                <th>{tx('Controller')}</th>
                <th>{tx('Bus address')}</th>
                <th>{tx('Speed')}</th>
                <th>{tx('Reader')}</th>
              </tr>
            </thead>
            <tbody>
              {a.items.map((r) => (
                <tr key={`${r.controllerId}:${r.address}`} data-testid="osdp-found-reader" aria-label={`${r.controllerName} ${r.address}`}>
                  <td>{r.controllerName}</td>
                  <td>{r.address}</td>
                  <td>{r.baud ? tx('{baud} baud', { baud: r.baud }) : '—'}</td>
                  <td>
                    {/* one cell, so that the action stays in sight at 390 px */}
                    <dl className="gh-osdp__found">
                      <dt className="bp6-text-muted">{tx('Vendor (OUI)')}</dt>
                      <dd>{vendorOf(r)}</dd>
                      <dt className="bp6-text-muted">{tx('Model')}</dt>
                      <dd>{tx('{model}, version {version}', { model: r.identity.model, version: r.identity.version })}</dd>
                      <dt className="bp6-text-muted">{tx('Serial number')}</dt>
                      <dd>{r.identity.serial}</dd>
                      <dt className="bp6-text-muted">{tx('Firmware')}</dt>
                      <dd>{r.identity.firmware}</dd>
                      <dt className="bp6-text-muted">{tx('Capabilities')}</dt>
                      <dd data-testid="osdp-found-capabilities">
                        {capabilitiesOf(r)
                          .map((c) => (c.bytes !== null ? `${tx(c.label)}: ${tx('{n} bytes', { n: c.bytes })}` : tx(c.label)))
                          .join(', ') || '—'}
                      </dd>
                    </dl>
                    {r.baud && r.lineBaud && r.baud !== r.lineBaud ? (
                      <p className="gh-osdp__away bp6-text-muted" data-testid="osdp-found-away">
                        {tx('It answers at {baud} baud, the line runs at {line} baud: once added, its edge moves it to the line’s speed, then pairs it.', {
                          baud: r.baud,
                          line: r.lineBaud,
                        })}
                      </p>
                    ) : null}
                    {mayAdd && (
                      <Button size="small" icon="plus" onClick={() => add(r)} data-testid="osdp-found-add">
                        {tx('Add and pair')}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </TableScroll>
      )}
    </Card>
  );
}
