// /configure/door-qr [0.4.5.5] (issue 12): which doors take rotating QR codes, turned on and off here (off asks first:
// codes already shown stop working; on makes a new secret). For a door that takes them, **Show a code** draws the
// code a credential shows at that door now, as a phone would, with the time it stays current; it renews itself when
// the server announces the next period on `/dynamic-qr` (a timer is the fallback while the socket is down; the server
// makes every code: the door's secret never reaches the browser).
import { useEffect, useState } from 'react';
import { Alert, Button, Callout, Card, Drawer, FormGroup, HTMLTable, InputGroup, NonIdealState, ProgressBar, Spinner, Switch, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import QRCode from 'qrcode';
import { DESTINATIONS, type DoorQrRow, type DynamicQr } from '../../../contract';
import {
  selectQrAnswer,
  selectQrAsking,
  selectQrDoors,
  selectQrError,
  selectQrLoadFailed,
  selectQrLoading,
  selectQrProblem,
  selectQrTurning,
} from '../../../machines/doorQr';
import { selectClientId } from '../../../machines/session.selectors';
import { useRouteInfo } from '../../app/RouteContext';
import { useChangeNotices } from '../../hooks/useChangeNotices';
import { useSystemActor } from '../../hooks/useSystemActor';
import { useViewActor } from '../../hooks/useViewActor';
import { routeDescription, routeTitle, say, tCat, tx, useLocale } from '../../i18n';
import { labelled, violationText } from '../../i18n/violations';
import { notify } from '../../hooks/console';
import { PageHeader } from '../../ui/PageHeader';
import { useTime } from '../../ui/time';
import './doorQr.css';

export function DoorQrScreen() {
  const clientId = useSelector(useSystemActor('session'), selectClientId);
  // another client: another list (the screen's actor starts again)
  return <DoorQrPage key={clientId ?? 0} />;
}

function DoorQrPage() {
  useLocale();
  const { route } = useRouteInfo();
  const qr = useViewActor('doorQrLogic');
  const rows = useSelector(qr, selectQrDoors);
  const loading = useSelector(qr, selectQrLoading);
  const loadFailed = useSelector(qr, selectQrLoadFailed);
  const turning = useSelector(qr, selectQrTurning);
  const error = useSelector(qr, selectQrError);
  useEffect(() => {
    const sub = qr.on('doorQr.turned', ({ id, on }) => {
      const name = qr.getSnapshot().context.doors?.find((d) => d.id === id)?.name ?? `#${id}`;
      notify({
        intent: 'success',
        title: name,
        message: on ? tx('{name} takes QR codes now.', { name }) : tx('{name} takes no QR codes now.', { name }),
        timeoutMs: 3000,
      });
    });
    return () => sub.unsubscribe();
  }, [qr]);
  const reload = () => qr.send({ type: 'doorQr.reload' });
  // a kept-alive screen shown again reads the doors again (its effects re-mount)
  useChangeNotices(null, qr, { type: 'doorQr.reload' });
  const [asking, setAsking] = useState<DoorQrRow | null>(null); // visual: which door's "off" is being confirmed
  const [showing, setShowing] = useState<DoorQrRow | null>(null); // visual: the door whose code is drawn

  return (
    <div className="gh-page" data-testid="door-qr">
      <PageHeader
        title={routeTitle(route)}
        icon={route.icon}
        description={routeDescription(route)}
        actions={
          <Button icon="refresh" variant="outlined" loading={loading} onClick={reload}>
            {tx('Refresh')}
          </Button>
        }
      />
      {error && (
        <Callout intent="danger" icon="error" className="gh-mb">
          {say(error)}
        </Callout>
      )}
      {loadFailed && !rows && (
        <NonIdealState icon="error" title={tx('The doors could not be loaded')} action={<Button icon="refresh" text={tx('Try again')} onClick={reload} />} />
      )}
      {!rows && !loadFailed && <NonIdealState icon={<Spinner />} title={tx('Loading…')} />}
      {rows && rows.length === 0 && <NonIdealState icon="key-enter" title={tx('No doors')} />}
      {rows && rows.length > 0 && (
        <HTMLTable compact striped className="gh-table-full" data-testid="door-qr-table">
          <thead>
            <tr>
              <th>{tx('Door')}</th>
              <th>{tx('Division')}</th>
              <th>{tx('QR codes')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id} data-testid="door-qr-row" aria-label={d.name}>
                <td>{d.name}</td>
                <td>{d.divisionName ?? <span className="bp6-text-muted">—</span>}</td>
                <td>
                  <Switch
                    checked={d.qr}
                    disabled={turning}
                    label={tx(d.qr ? 'On' : 'Off')}
                    data-testid="door-qr-switch"
                    className="gh-switch-inline"
                    onChange={() => (d.qr ? setAsking(d) : qr.send({ type: 'doorQr.turn', id: d.id, on: true }))}
                  />
                </td>
                <td>
                  {d.qr && (
                    <Button size="small" icon="barcode" onClick={() => setShowing(d)} data-testid="door-qr-show">
                      {tx('Show a code')}
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <Alert
        isOpen={asking !== null}
        intent="danger"
        icon="barcode"
        cancelButtonText={tx('Cancel')}
        confirmButtonText={tx('Turn off')}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          if (asking) qr.send({ type: 'doorQr.turn', id: asking.id, on: false });
          setAsking(null);
        }}
      >
        <p>{tx('Turn off QR codes at {name}? Codes already shown stop opening it.', { name: asking?.name ?? '' })}</p>
      </Alert>
      <Drawer
        isOpen={showing !== null}
        onClose={() => setShowing(null)}
        title={showing ? tx('QR code for {name}', { name: showing.name }) : ''}
        icon="barcode"
        size="min(440px, 100%)"
      >
        {showing && <CodePanel door={showing} />}
      </Drawer>
    </div>
  );
}

/** The code a credential shows at the door now, drawn, renewed when its period ends. */
function CodePanel({ door }: { door: DoorQrRow }) {
  const time = useTime();
  const locale = useLocale();
  const [typed, setTyped] = useState(''); // visual: the credential being typed
  const code = useViewActor('doorQrCodeLogic', { input: { doorId: door.id } });
  const answer = useSelector(code, selectQrAnswer)?.code;
  const problem = useSelector(code, selectQrProblem);
  const busy = useSelector(code, selectQrAsking);
  const [svg, setSvg] = useState<string | null>(null); // visual: the code drawn as a picture
  const [now, setNow] = useState(Date.now()); // visual: the countdown's clock
  // the server's `/dynamic-qr` notice for this door: a new period (or a new secret) — the actor reads the code again
  useChangeNotices({ destinations: [DESTINATIONS.dynamicQr] }, code, (body) => {
    const notice = body as DynamicQr;
    return { type: 'qr.noticed' as const, doorId: Number(notice.doorId), code: notice.code };
  });
  useEffect(() => {
    if (!answer) {
      setSvg(null);
      return;
    }
    let live = true;
    void QRCode.toString(answer.code, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((x) => {
      if (live) setSvg(x);
    });
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      live = false;
      clearInterval(tick);
    };
  }, [answer]);
  const left = answer ? Math.max(0, Date.parse(answer.validTo) - now) : 0;
  return (
    <div className="gh-drawer-body" data-testid="door-qr-panel">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim()) code.send({ type: 'qr.ask', credential: typed.trim().toUpperCase() });
        }}
      >
        <FormGroup label={tx('Credential number')} labelFor="qr-credential" helperText={tx('The card number of the person who will show the code')}>
          <InputGroup
            id="qr-credential"
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            className="gh-upper"
            autoComplete="off"
            rightElement={<Button type="submit" variant="minimal" icon="arrow-right" aria-label={tx('Show a code')} data-testid="door-qr-ask" />}
          />
        </FormGroup>
      </form>
      {problem && (
        <Callout intent="danger" icon="error" data-testid="door-qr-problem">
          {problem.violation
            ? labelled(
                tx('Credential'),
                violationText(problem.message, locale, (k, e) => tCat(k, e, locale)),
                locale,
              )
            : say(problem.message)}
        </Callout>
      )}
      {busy && !answer && <Spinner />}
      {answer && (
        <Card className="gh-qr" data-testid="door-qr-code" data-code={answer.code}>
          {svg ? <img src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`} alt={tx('QR code')} className="gh-qr__image" /> : <Spinner />}
          <div>
            <Tag minimal>{answer.credential}</Tag> {answer.identityName}
          </div>
          <ProgressBar value={left / (answer.periodS * 1000)} stripes={false} intent={left < 5000 ? 'warning' : 'primary'} className="gh-qr__bar" />
          <div className="bp6-text-muted" data-testid="door-qr-valid">
            {tx('Current until {time} ({n} s); a new one follows by itself.', { time: time.dateTime(answer.validTo), n: Math.ceil(left / 1000) })}
          </div>
        </Card>
      )}
    </div>
  );
}
