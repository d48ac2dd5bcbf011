// /configure/access-zone [0.4.2.0] (issue 12): the zones of the catalogue list, each with how many people are inside
// now (the last zone the engine let each person into), and "Who is inside": the muster list with since when, and for
// holders of 0.4.2.2 a Forgive per person — their anti-passback is lifted, so they may badge in again.
import { useMemo, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { Button, Dialog, DialogBody, DialogFooter, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { commandMachine, selectRunningCommand } from '../../../machines/command';
import { PRIV, hasPrivilege } from '../../../contract';
import { selectClientId, selectHeldPrivileges } from '../../../machines/session.selectors';
import { forgiveInZone, zoneOccupancy, zoneOccupants } from '../../api/endpoints';
import { useSystemActor } from '../../app/useSystemActor';
import { tx, useLocale } from '../../i18n';
import { consoleResource } from '../../resources/registry';
import { notify } from '../../system/notices';
import { ListScreen } from '../../ui/ListScreen';
import { useTime } from '../../ui/time';
import { useTask } from '../../ui/useTask';

export function AccessZonesScreen() {
  useLocale();
  const session = useSystemActor('session');
  const clientId = useSelector(session, selectClientId);
  const mayForgive = hasPrivilege(useSelector(session, selectHeldPrivileges), [PRIV.accessZones.edit]);
  const occupancy = useTask(() => zoneOccupancy(), [clientId]);
  const count = (id: number) => occupancy.output?.items.find((x) => x.zoneId === id)?.count ?? 0;
  const [open, setOpen] = useState<{ id: number; name: string } | null>(null);
  return (
    <>
      <ListScreen<{ id: number; name: string }> testId="access-zones" resource={consoleResource('accessZones')}
        rowActions={(z) => (
          // the count is the button: who is inside, with a Forgive each
          <Button size="small" variant={count(z.id) ? 'outlined' : 'minimal'} intent={count(z.id) ? 'primary' : 'none'} icon="people" data-testid="zone-inside"
            aria-label={`${tx('Who is inside')}: ${z.name}`} title={tx('Who is inside')} onClick={() => { occupancy.reload(); setOpen({ id: z.id, name: z.name }); }}>
            {count(z.id)}
          </Button>
        )} />
      {open && <Occupants zone={open} mayForgive={mayForgive} onClose={() => { setOpen(null); occupancy.reload(); }} />}
    </>
  );
}

function Occupants({ zone, mayForgive, onClose }: { zone: { id: number; name: string }; mayForgive: boolean; onClose: () => void }) {
  const list = useTask(() => zoneOccupants(zone.id), [zone.id]);
  const time = useTime();
  // one forgive at a time, through the command machine (its running command is the busy state)
  const reload = useRef(list.reload);
  reload.current = list.reload;
  const machine = useMemo(() => commandMachine.provide({
    actors: {
      run: fromPromise<unknown, { command: string }>(async ({ input }) => {
        const [id, name] = [Number(input.command.split('|')[0]), input.command.split('|').slice(1).join('|')];
        const answer = await forgiveInZone(zone.id, id);
        notify({ intent: 'success', title: tx('Forgiven'), message: tx('{name} may badge into {zone} again.', { name, zone: zone.name }), timeoutMs: 4000 });
        reload.current();
        return answer;
      }),
    },
  }), [zone]);
  const commands = useActorRef(machine);
  const running = useSelector(commands, selectRunningCommand);
  const forgive = (identityId: number, name: string) => commands.send({ type: 'command.run', command: `${identityId}|${name}` });
  const busy = running === null ? null : Number(running.split('|')[0]);
  const people = list.output?.occupants ?? [];
  return (
    <Dialog isOpen onClose={onClose} title={tx('Inside {zone}', { zone: zone.name })} icon="people" className="gh-whatif">
      <div data-testid="zone-occupants">
        <DialogBody>
          {!list.output && <NonIdealState icon={<Spinner />} title={tx('Loading…')} />}
          {list.output && people.length === 0 && <NonIdealState icon="tick-circle" title={tx('Nobody is inside')} />}
          {people.length > 0 && (
            <div className="gh-whatif__table">
              <HTMLTable compact striped>
                <thead><tr><th>{tx('Identity')}</th><th>{tx('Inside since')}</th>{mayForgive && <th />}</tr></thead>
                <tbody>
                  {people.map((p) => (
                    <tr key={p.identityId} data-testid="zone-occupant">
                      <td>{p.name}</td><td>{time.dateTime(p.since)}</td>
                      {mayForgive && <td><Button size="small" variant="outlined" loading={busy === p.identityId} disabled={busy !== null} onClick={() => forgive(p.identityId, p.name)} aria-label={`${tx('Forgive')}: ${p.name}`}>{tx('Forgive')}</Button></td>}
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </div>
          )}
        </DialogBody>
        <DialogFooter actions={<Button onClick={onClose} data-testid="zone-close">{tx('Close')}</Button>}>
          <span className="bp6-text-muted">{tx('{n} inside', { n: people.length })}</span>
        </DialogFooter>
      </div>
    </Dialog>
  );
}
