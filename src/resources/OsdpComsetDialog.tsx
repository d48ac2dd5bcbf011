// COMSET from the console (issue 46; docs/OSDP.md "The Hardware screens"): an installer moves a card reader's OSDP
// reader to another bus address and/or speed. The dialog asks both (the reader's now filled in), then a confirmation
// that says what happens; the server (`POST …/card-readers/:id/comset`, edit card readers, audited) has the edge send
// osdp_COMSET and the bus follow the reader, and moves the card reader's record to the new address. A toast says
// where the reader is now; a refusal (a bad field, an edge offline, other readers online on a line whose speed would
// change) stays in the dialog.
import { useEffect, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { ConfirmAlert } from '../ui/ConfirmAlert';
import { useSelector } from '@xstate/react';
import { OSDP_BAUD_RATES, messageOf, type OsdpComsetAnswer, type OsdpReaderRow } from '../../contract';
import { selectCommandError, selectRunningCommand } from '../../machines/command';
import { notify } from '../hooks/console';
import { useViewActor } from '../hooks/useViewActor';
import { say, t, tx } from '../i18n';

export function OsdpComsetDialog({ r, onClose, onMoved }: { r: OsdpReaderRow | null; onClose: () => void; onMoved: () => void }) {
  const actor = useViewActor('osdpComsetCommands');
  const running = useSelector(actor, selectRunningCommand);
  const refused = useSelector(actor, selectCommandError);
  // visual: the form's values and whether the confirmation is up
  const [address, setAddress] = useState('');
  const [baud, setBaud] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!r) return;
    setAddress(String(r.address));
    setBaud(r.baud ?? 0);
    setConfirming(false);
    setTried(false);
  }, [r]);
  useEffect(() => {
    const done = actor.on('command.done', ({ result }) => {
      const a = result as OsdpComsetAnswer;
      notify({ intent: 'success', title: tx('Reader moved'), message: say(messageOf(a)), timeoutMs: 6000 });
      onMoved();
      onClose();
    });
    return () => done.unsubscribe();
  }, [actor, onClose, onMoved]);

  const to = Number(address);
  const addressBad = address.trim() === '' || !Number.isInteger(to) || to < 0 || to > 126;
  const same = r !== null && to === r.address && baud === r.baud;
  const run = () => {
    setTried(true);
    if (r?.cardReader) actor.send({ type: 'command.run', command: JSON.stringify({ id: r.cardReader.id, address: to, baud }) });
  };
  return (
    <Dialog isOpen={r !== null} onClose={onClose} title={tx('Change bus address or speed')} icon="exchange" className="gh-osdp__comset">
      <DialogBody>
        <p className="bp6-text-muted">
          {tx(
            'The controller sends the reader its new address and speed (osdp_COMSET); the reader answers at them at once and the controller follows it there. The card reader’s record takes the new address.',
          )}
        </p>
        <FormGroup
          label={tx('Bus address')}
          labelFor="osdp-comset-address"
          helperText={addressBad ? tx('From 0 to 126') : undefined}
          intent={addressBad ? 'danger' : 'none'}
        >
          <InputGroup
            id="osdp-comset-address"
            inputMode="numeric"
            value={address}
            intent={addressBad ? 'danger' : 'none'}
            onValueChange={setAddress}
            data-testid="osdp-comset-address"
          />
        </FormGroup>
        <FormGroup
          label={tx('Speed')}
          labelFor="osdp-comset-baud"
          helperText={tx('Every reader on a line runs at one speed: the speed changes only for a reader alone on its line.')}
        >
          <HTMLSelect id="osdp-comset-baud" value={baud} onChange={(e) => setBaud(Number(e.currentTarget.value))} data-testid="osdp-comset-baud" fill>
            {r && !r.baud && <option value={0}>{tx('Not reported')}</option>}
            {OSDP_BAUD_RATES.map((b) => (
              <option key={b} value={b}>
                {tx('{baud} baud', { baud: b })}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        {tried && refused && (
          <Callout intent="danger" icon="error" compact data-testid="osdp-comset-refused">
            {tx('Not moved')}: {say(refused)}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('cancel')}</Button>
            <Button
              intent="warning"
              disabled={addressBad || same || !baud}
              loading={running !== null}
              onClick={() => setConfirming(true)}
              data-testid="osdp-comset-submit"
            >
              {tx('Move reader')}
            </Button>
          </>
        }
      />
      <ConfirmAlert open={confirming} icon="exchange" confirm={tx('Move reader')} cancel={t('cancel')} onClose={() => setConfirming(false)} onConfirm={run}>
        <p>
          <strong>
            {tx('Move {name} from bus address {from} at {fromBaud} baud to bus address {to} at {toBaud} baud?', {
              name: r?.cardReader?.name ?? '',
              from: r?.address ?? 0,
              fromBaud: r?.baud ?? '?',
              to,
              toBaud: baud,
            })}
          </strong>
        </p>
        <p>
          {tx(
            'The reader takes them as soon as it answers. Set the same address and speed on the reader’s own configuration if it keeps them elsewhere; a reader moved to a speed its line cannot carry must be moved back on site. The action is audited.',
          )}
        </p>
      </ConfirmAlert>
    </Dialog>
  );
}
