// /configure/access-zone [0.4.2.0] (issue 12): the zones of the catalogue list, each with how many people are inside
// now (the last zone the engine let each person into), and "Who is inside": the muster list with since when, and for
// holders of 0.4.2.2 a Forgive per person — their anti-passback is lifted, so they may badge in again.
import { useEffect, useRef, useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { selectRunningCommand } from '../../../machines/command';
import { PRIV, hasPrivilege, type ZoneOccupancy, type ZoneOccupants } from '../../../contract';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { useReading } from '../../hooks/useReading';
import { useViewActor } from '../../hooks/useViewActor';
import { useSystemActor } from '../../hooks/useSystemActor';
import { tx, useLocale } from '../../i18n';
import { consoleResource } from '../../resources/registry';
import { notify } from '../../hooks/console';
import { ListScreen } from '../../ui/ListScreen';
import { useTime } from '../../ui/time';
import '../../resources/whatIf.css';

export function AccessZonesScreen() {
  useLocale();
  const session = useSystemActor('session');
  const mayForgive = hasPrivilege(useSelector(session, selectHeldPrivileges), [PRIV.accessZones.edit]);
  const occupancy = useReading<ZoneOccupancy>('zoneOccupancyReading');
  const count = (id: number) => occupancy.output?.items.find((x) => x.zoneId === id)?.count ?? 0;
  const [open, setOpen] = useState<{ id: number; name: string } | null>(null); // visual: the zone whose occupants are shown
  return (
    <>
      <ListScreen<{ id: number; name: string }>
        testId="access-zones"
        resource={consoleResource('accessZones')}
        rowActions={(z) => (
          // the count is the button: who is inside, with a Forgive each
          <Button
            size="small"
            variant={count(z.id) ? 'outlined' : 'minimal'}
            intent={count(z.id) ? 'primary' : 'none'}
            icon="people"
            data-testid="zone-inside"
            aria-label={`${count(z.id)} · ${tx('Who is inside')}: ${z.name}`}
            title={tx('Who is inside')}
            onClick={() => {
              occupancy.reload();
              setOpen({ id: z.id, name: z.name });
            }}
          >
            {count(z.id)}
          </Button>
        )}
      />
      {open && (
        <Occupants
          zone={open}
          mayForgive={mayForgive}
          onClose={() => {
            setOpen(null);
            occupancy.reload();
          }}
        />
      )}
    </>
  );
}

function Occupants({ zone, mayForgive, onClose }: { zone: { id: number; name: string }; mayForgive: boolean; onClose: () => void }) {
  const list = useReading<ZoneOccupants>('zoneOccupantsReading', { input: zone.id, key: zone.id });
  const time = useTime();
  // one forgive at a time (its running command is the busy state); its answer is said in a toast and the list read again
  const commands = useViewActor('forgiveCommands');
  const { reload } = list;
  const people = list.output?.occupants ?? [];
  const nameOf = (identityId: number) => people.find((p) => p.identityId === identityId)?.name ?? `#${identityId}`;
  const names = useLatest(nameOf);
  useEffect(() => {
    const sub = commands.on('command.done', ({ command }) => {
      notify({
        intent: 'success',
        title: tx('Forgiven'),
        message: tx('{name} may badge into {zone} again.', { name: names.current(Number(command.split('|')[1])), zone: zone.name }),
        timeoutMs: 4000,
      });
      reload();
    });
    return () => sub.unsubscribe();
  }, [commands, reload, zone.name, names]);
  const running = useSelector(commands, selectRunningCommand);
  const forgive = (identityId: number) => commands.send({ type: 'command.run', command: `${zone.id}|${identityId}` });
  const busy = running === null ? null : Number(running.split('|')[1]);
  return (
    <Dialog isOpen onClose={onClose} title={tx('Inside {zone}', { zone: zone.name })} icon="people" className="gh-whatif">
      <div data-testid="zone-occupants">
        <DialogBody>
          {!list.output && <NonIdealState icon={<Spinner />} title={tx('Loading…')} />}
          {list.output && people.length === 0 && <NonIdealState icon="tick-circle" title={tx('Nobody is inside')} />}
          {people.length > 0 && (
            <div className="gh-whatif__table">
              <HTMLTable compact striped>
                <thead>
                  <tr>
                    <th>{tx('Identity')}</th>
                    <th>{tx('Inside since')}</th>
                    {mayForgive && <th />}
                  </tr>
                </thead>
                <tbody>
                  {people.map((p) => (
                    <tr key={p.identityId} data-testid="zone-occupant">
                      <td>{p.name}</td>
                      <td>{time.dateTime(p.since)}</td>
                      {mayForgive && (
                        <td>
                          <Button
                            size="small"
                            variant="outlined"
                            loading={busy === p.identityId}
                            disabled={busy !== null}
                            onClick={() => forgive(p.identityId)}
                            aria-label={`${tx('Forgive')}: ${p.name}`}
                          >
                            {tx('Forgive')}
                          </Button>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </div>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <Button onClick={onClose} data-testid="zone-close">
              {tx('Close')}
            </Button>
          }
        >
          <span className="bp6-text-muted">{tx('{n} inside', { n: people.length })}</span>
        </DialogFooter>
      </div>
    </Dialog>
  );
}

/** A ref holding the latest value (read by a subscription made once). */
function useLatest<T>(value: T) {
  const ref = useRef(value); // latest: the value, for a subscription made once
  ref.current = value;
  return ref;
}
