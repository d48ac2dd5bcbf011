// "Read card" and "Take photo" in a registration form (issue 5): the card connector fills name, ID number
// and photo from an identity card (MyKad); the desktop companion takes a photo. Both actors are read and sent
// events only; their facts (`card.read`, `companion.photoCaptured`) are heard with `actor.on`. A read never
// replaces a field the operator edited without asking (cardFill.ts).
import { useEffect, useId, useState } from 'react';
import { Alert, Button, Callout, Card, Classes, H5, Icon } from '@blueprintjs/core';
import { useField, useForm } from 'react-final-form';
import { getIn } from 'final-form';
import { useSelector } from '@xstate/react';
import { tx } from '../i18n';
import { TOAST_MS, type PhotoPurpose } from '../../contract';
import {
  selectCanReadCard,
  selectConnectorError,
  selectConnectorNeedsRetry,
  selectConnectorStatus,
  selectConnectorStatusText,
  selectReaderState,
} from '../../machines/cardConnector.selectors';
import { selectCanCapturePhoto, selectCompanionIsBusy } from '../../machines/companion.selectors';
import { useSystemActor } from '../hooks/useSystemActor';
import { notify } from '../hooks/console';
import { cardValues, photoDataUrl, planFill, type Conflict } from './cardFill';
import './readCard.css';

const LABELS: Record<string, string> = { firstName: 'First name', lastName: 'Last name', idNumber: 'ID number', photo: 'Photo' };
const IDLE_TEXT = 'Read the identity card (MyKad) to fill the name, ID number and photo.';

export function ReadCardPanel({ purpose }: { purpose: PhotoPurpose }) {
  const ff = useForm();
  const photo = useField<string>('photo', { subscription: { value: true } }).input.value;
  const connector = useSystemActor('cardConnector');
  const status = useSelector(connector, selectConnectorStatus);
  const statusText = useSelector(connector, selectConnectorStatusText);
  const needsRetry = useSelector(connector, selectConnectorNeedsRetry);
  const canRead = useSelector(connector, selectCanReadCard);
  const reading = useSelector(connector, (s) => selectReaderState(s) === 'reading');
  const error = useSelector(connector, selectConnectorError);
  const companion = useSystemActor('companion');
  const canCapture = useSelector(companion, selectCanCapturePhoto);
  const companionBusy = useSelector(companion, selectCompanionIsBusy);

  // what the card reads put in this form's fields is the card reader actor's (cardConnector.filled, by form); the photo
  // request in flight is the companion's (its pending requests, by this form's request id)
  const formId = useId().replace(/[^A-Za-z0-9.:-]/g, '');
  const photoRequest = `${purpose}-${formId || 'form'}-photo`;
  // visual: the question open after a read, with what it asks about
  const [question, setQuestion] = useState<{ conflicts: Conflict[]; othersFilled: boolean } | null>(null);
  const conflicts = question?.conflicts ?? null;

  useEffect(() => {
    const fill = (values: Record<string, string>) => {
      ff.batch(() => {
        for (const [name, value] of Object.entries(values)) ff.change(name, value);
      });
      connector.send({ type: 'cardConnector.filled', form: formId, values });
    };
    const fieldNow = (name: string) => {
      const st = ff.getFieldState(name);
      return st ? { value: st.value, dirty: !!st.dirty } : { value: getIn(ff.getState().values, name), dirty: false };
    };
    const subs = [
      connector.on('card.read', ({ card }) => {
        const plan = planFill(cardValues(card), fieldNow, connector.getSnapshot().context.filled[formId]);
        fill(plan.apply);
        if (plan.conflicts.length > 0) setQuestion({ conflicts: plan.conflicts, othersFilled: Object.keys(plan.apply).length > 0 });
        else notify({ intent: 'success', title: tx('Card read'), message: tx('The form was filled from the card.'), timeoutMs: TOAST_MS });
      }),
      companion.on('companion.photoCaptured', (e) => {
        if (e.requestId !== photoRequest) return;
        // the operator asked for this photo: it is theirs, a later card read asks before replacing it
        ff.change('photo', photoDataUrl(e.file));
        connector.send({ type: 'cardConnector.unfilled', form: formId, field: 'photo' });
      }),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [connector, companion, ff, formId, photoRequest]);

  // one photo at a time for a form: the button waits while the companion has a request on its way
  const takePhoto = () => companion.send({ type: 'companion.capturePhoto', purpose, requestId: photoRequest });
  const replace = () => {
    if (conflicts) {
      const values = Object.fromEntries(conflicts.map((c) => [c.name, c.incoming]));
      ff.batch(() => {
        for (const [name, value] of Object.entries(values)) ff.change(name, value);
      });
      connector.send({ type: 'cardConnector.filled', form: formId, values });
    }
    setQuestion(null);
  };

  const failed = needsRetry;
  const text = statusText ?? IDLE_TEXT;
  return (
    <Card className="gh-form__section gh-devices" compact data-testid="card-reader-panel">
      <H5>{tx('Identity card and photo')}</H5>
      <div className="gh-devices__row">
        <div className="gh-devices__photo">
          {photo ? (
            <img src={photo} alt={purpose === 'visitor' ? tx('Visitor photo') : tx('Identity photo')} data-testid="form-photo" />
          ) : (
            <Icon icon="person" size={40} className={Classes.TEXT_MUTED} />
          )}
        </div>
        <div className="gh-devices__main">
          {failed ? (
            <Callout intent="warning" icon="warning-sign" className="gh-devices__status" data-testid="card-connector-status" data-status={status}>
              {tx(text)}
            </Callout>
          ) : (
            <p className="gh-devices__status" data-testid="card-connector-status" data-status={status}>
              {tx(text)}
            </p>
          )}
          {error && !failed && (
            <p className={`${Classes.TEXT_MUTED} gh-devices__status`} data-testid="card-connector-error">
              {tx(error)}
            </p>
          )}
          <div className="gh-devices__buttons">
            {(status === 'idle' || status === 'searching') && (
              <Button
                icon="id-number"
                text={tx('Connect card reader')}
                loading={status === 'searching'}
                onClick={() => connector.send({ type: 'cardConnector.connect' })}
                data-testid="connect-card-reader"
              />
            )}
            {failed && (
              <Button icon="refresh" text={tx('Try again')} onClick={() => connector.send({ type: 'cardConnector.retry' })} data-testid="card-reader-retry" />
            )}
            <Button
              intent="primary"
              icon="id-number"
              text={tx('Read card')}
              disabled={!canRead}
              loading={reading}
              onClick={() => connector.send({ type: 'cardConnector.read' })}
              data-testid="read-card"
            />
            {canCapture && <Button icon="camera" text={tx('Take photo')} loading={companionBusy} onClick={takePhoto} data-testid="take-photo" />}
            {photo && (
              <Button
                variant="minimal"
                icon="trash"
                text={tx('Remove photo')}
                onClick={() => {
                  ff.change('photo', '');
                  connector.send({ type: 'cardConnector.unfilled', form: formId, field: 'photo' });
                }}
                data-testid="remove-photo"
              />
            )}
          </div>
        </div>
      </div>
      <Alert
        isOpen={conflicts !== null}
        intent="warning"
        icon="warning-sign"
        confirmButtonText={tx('Replace')}
        cancelButtonText={tx('Keep my edits')}
        onConfirm={replace}
        onCancel={() => setQuestion(null)}
        className="gh-devices__confirm"
      >
        <p>
          <strong>{tx('Replace edited fields?')}</strong>
        </p>
        <p>{tx('The card differs from what you entered in:')}</p>
        <ul data-testid="card-conflicts">
          {(conflicts ?? []).map((c) => (
            <li key={c.name}>
              {tx(LABELS[c.name] ?? c.name)}
              {c.name === 'photo' ? (
                ''
              ) : (
                <>
                  : “{c.current}” → “{c.incoming}”
                </>
              )}
            </li>
          ))}
        </ul>
        {question?.othersFilled && <p className={Classes.TEXT_MUTED}>{tx('The other fields were filled from the card.')}</p>}
      </Alert>
    </Card>
  );
}
