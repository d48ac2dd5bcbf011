// /configure/door-qr [0.4.5.5] (issue 12): which doors take rotating QR codes, turned on and off here (off asks first:
// codes already shown stop working; on makes a new secret). For a door that takes them, **Show a code** draws the
// code a credential shows at that door now, as a phone would, with the time it stays current; it renews itself when
// the server announces the next period on `/dynamic-qr` (a timer is the fallback while the socket is down; the server
// makes every code: the door's secret never reaches the browser).
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Callout, Card, Drawer, FormGroup, HTMLTable, InputGroup, NonIdealState, ProgressBar, Spinner, Switch, Tag } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import QRCode from 'qrcode';
import { DESTINATIONS, type DoorQrCode, type DoorQrRow, type DynamicQr } from '../../../contract';
import { commandMachine, selectCommandError, selectRunningCommand } from '../../../machines/command';
import { selectClientId } from '../../../machines/session.selectors';
import { doorQrCode, listDoorQr, setDoorQr } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import { useRouteInfo } from '../../app/RouteContext';
import { useSystemActor } from '../../app/useSystemActor';
import { routeDescription, routeTitle, say, tx, useLocale } from '../../i18n';
import { notify } from '../../system/notices';
import { PageHeader } from '../../ui/PageHeader';
import { useTime } from '../../ui/time';
import { useTask } from '../../ui/useTask';

export function DoorQrScreen() {
  useLocale();
  const { route } = useRouteInfo();
  const clientId = useSelector(useSystemActor('session'), selectClientId);
  const doors = useTask(() => listDoorQr(), [clientId]);
  const reload = useRef(doors.reload);
  reload.current = doors.reload;
  const names = useRef(new Map<number, string>());
  for (const d of doors.output?.items ?? []) names.current.set(d.id, d.name);
  const machine = useMemo(() => commandMachine.provide({
    actors: {
      run: fromPromise<unknown, { command: string }>(async ({ input }) => {
        const [id, on] = input.command.split(':');
        await setDoorQr(Number(id), on === 'on');
        const name = names.current.get(Number(id)) ?? `#${id}`;
        notify({ intent: 'success', title: name, message: on === 'on' ? tx('{name} takes QR codes now.', { name }) : tx('{name} takes no QR codes now.', { name }), timeoutMs: 3000 });
        reload.current();
        return id;
      }),
    },
  }), []);
  const commands = useActorRef(machine);
  const running = useSelector(commands, selectRunningCommand);
  const error = useSelector(commands, selectCommandError);
  const [asking, setAsking] = useState<DoorQrRow | null>(null); // visual: which door's "off" is being confirmed
  const [showing, setShowing] = useState<DoorQrRow | null>(null); // visual: the door whose code is drawn

  const rows = doors.output?.items ?? null;
  return (
    <div className="gh-page" data-testid="door-qr">
      <PageHeader title={routeTitle(route)} icon={route.icon} description={routeDescription(route)}
        actions={<Button icon="refresh" variant="outlined" loading={doors.status === 'active'} onClick={doors.reload}>{tx('Refresh')}</Button>} />
      {error && <Callout intent="danger" icon="error" className="gh-mb">{say(error)}</Callout>}
      {doors.status === 'error' && !rows && <NonIdealState icon="error" title={tx('The doors could not be loaded')} action={<Button icon="refresh" text={tx('Try again')} onClick={doors.reload} />} />}
      {!rows && doors.status !== 'error' && <NonIdealState icon={<Spinner />} title={tx('Loading…')} />}
      {rows && rows.length === 0 && <NonIdealState icon="key-enter" title={tx('No doors')} />}
      {rows && rows.length > 0 && (
        <HTMLTable compact striped className="gh-table-full" data-testid="door-qr-table">
          <thead><tr><th>{tx('Door')}</th><th>{tx('Division')}</th><th>{tx('QR codes')}</th><th /></tr></thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id} data-testid="door-qr-row" aria-label={d.name}>
                <td>{d.name}</td>
                <td>{d.divisionName ?? <span className="bp6-text-muted">—</span>}</td>
                <td>
                  <Switch checked={d.qr} disabled={running !== null} label={tx(d.qr ? 'On' : 'Off')} data-testid="door-qr-switch" className="gh-switch-inline"
                    onChange={() => (d.qr ? setAsking(d) : commands.send({ type: 'command.run', command: `${d.id}:on` }))} />
                </td>
                <td>{d.qr && <Button size="small" icon="barcode" onClick={() => setShowing(d)} data-testid="door-qr-show">{tx('Show a code')}</Button>}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <Alert isOpen={asking !== null} intent="danger" icon="barcode" cancelButtonText={tx('Cancel')} confirmButtonText={tx('Turn off')}
        onCancel={() => setAsking(null)} onConfirm={() => { if (asking) commands.send({ type: 'command.run', command: `${asking.id}:off` }); setAsking(null); }}>
        <p>{tx('Turn off QR codes at {name}? Codes already shown stop opening it.', { name: asking?.name ?? '' })}</p>
      </Alert>
      <Drawer isOpen={showing !== null} onClose={() => setShowing(null)} title={showing ? tx('QR code for {name}', { name: showing.name }) : ''} icon="barcode" size="min(440px, 100%)">
        {showing && <CodePanel door={showing} />}
      </Drawer>
    </div>
  );
}

/** The code a credential shows at the door now, drawn, renewed when its period ends. */
function CodePanel({ door }: { door: DoorQrRow }) {
  const time = useTime();
  const [typed, setTyped] = useState('');
  const [asked, setAsked] = useState<string | null>(null); // visual: the credential whose code is drawn
  const [nonce, setNonce] = useState(0);
  const code = useTask(asked ? () => doorQrCode(door.id, asked) : null, [door.id, asked, nonce]);
  const answer: DoorQrCode | undefined = code.output;
  const [svg, setSvg] = useState<string | null>(null);
  const [now, setNow] = useState(Date.now());
  // the server's `/dynamic-qr` notice for this door: a new period (or a new secret) — read the code again at once
  const socket = useSystemActor('socket.visitor');
  const period = useRef<string | null>(null);
  useEffect(() => {
    const sub = socket.on('socket.message', (m) => {
      if (m.destination !== DESTINATIONS.dynamicQr) return;
      const notice = m.body as DynamicQr;
      // two servers announce the same period with the same code; a new secret in the same period has a new one
      if (Number(notice.doorId) !== door.id || notice.code === period.current) return;
      period.current = notice.code;
      setNonce((n) => n + 1);
    });
    return () => sub.unsubscribe();
  }, [socket, door.id]);
  useEffect(() => {
    if (!answer) { setSvg(null); return; }
    let live = true;
    void QRCode.toString(answer.code, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((x) => { if (live) setSvg(x); });
    // the next period's code comes with the server's notice; without one soon after this one ends, read it anyway
    const renew = setTimeout(() => setNonce((n) => n + 1), Math.max(0, Date.parse(answer.validTo) - Date.now()) + 2000);
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => { live = false; clearTimeout(renew); clearInterval(tick); };
  }, [answer]);
  const problem = code.error instanceof ApiError ? (code.error.violations[0] ? `${tx('Credential')} ${code.error.violations[0].message}` : code.error.message) : code.error ? String(code.error) : null;
  const left = answer ? Math.max(0, Date.parse(answer.validTo) - now) : 0;
  return (
    <div className="gh-drawer-body" data-testid="door-qr-panel">
      <form onSubmit={(e) => { e.preventDefault(); if (typed.trim()) { setAsked(typed.trim().toUpperCase()); setNonce((n) => n + 1); } }}>
        <FormGroup label={tx('Credential number')} labelFor="qr-credential" helperText={tx('The card number of the person who will show the code')}>
          <InputGroup id="qr-credential" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} className="gh-upper" autoComplete="off"
            rightElement={<Button type="submit" variant="minimal" icon="arrow-right" aria-label={tx('Show a code')} data-testid="door-qr-ask" />} />
        </FormGroup>
      </form>
      {problem && <Callout intent="danger" icon="error" data-testid="door-qr-problem">{problem}</Callout>}
      {code.status === 'active' && !answer && <Spinner />}
      {answer && (
        <Card className="gh-qr" data-testid="door-qr-code" data-code={answer.code}>
          {svg ? <img src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`} alt={tx('QR code')} className="gh-qr__image" /> : <Spinner />}
          <div><Tag minimal>{answer.credential}</Tag> {answer.identityName}</div>
          <ProgressBar value={left / (answer.periodS * 1000)} stripes={false} intent={left < 5000 ? 'warning' : 'primary'} className="gh-qr__bar" />
          <div className="bp6-text-muted" data-testid="door-qr-valid">{tx('Current until {time} ({n} s); a new one follows by itself.', { time: time.dateTime(answer.validTo), n: Math.ceil(left / 1000) })}</div>
        </Card>
      )}
    </div>
  );
}
