// /configure/doors: the client's doors with their live state (heart-beats over the stored status) and, for
// holders of door control [0.4.5.4], Lock / Unlock / Open briefly. A lasting unlock asks first (a door left
// unlocked by a slip is a security hole); one command at a time, through the command machine.
import { useMemo, useState } from 'react';
import { Alert, Button, ButtonGroup, Callout, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { hasPrivilege, PRIV, type DoorCommand } from '../../../contract';
import { commandMachine, selectCommandError, selectRunningCommand } from '../../../machines/command';
import { selectDoors } from '../../../machines/hardwareStatus.selectors';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { doorCommand, listDivisions, listDoors } from '../../api/endpoints';
import { useSystemActor } from '../../app/useSystemActor';
import { notify } from '../../system/notices';
import { PageHeader } from '../../ui/PageHeader';
import { useTask } from '../../ui/useTask';
import { countDoors, doorStateOf, mergeDoors, type LiveDoor } from './doorStatus';

const COMMANDS: { command: DoorCommand; label: string; icon: 'lock' | 'unlock' | 'time'; done: string }[] = [
  { command: 'lock', label: 'Lock', icon: 'lock', done: 'locked' },
  { command: 'momentary-unlock', label: 'Open briefly', icon: 'time', done: 'opened for a moment' },
  { command: 'unlock', label: 'Unlock', icon: 'unlock', done: 'unlocked' },
];
const key = (doorId: number, command: DoorCommand) => `${doorId}:${command}`;

export function DoorsScreen() {
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const canControl = hasPrivilege(held, [PRIV.doors.control]);
  const stored = useTask(() => listDoors(), []);
  const divisions = useTask(() => listDivisions({ size: 1000 }), []);
  const live = useSelector(useSystemActor('hardwareStatus'), selectDoors);
  const doors = useMemo(() => mergeDoors(stored.output?.items ?? [], live), [stored.output, live]);
  const divisionName = useMemo(() => new Map((divisions.output?.items ?? []).map((d) => [d.id, d.name])), [divisions.output]);

  const machine = useMemo(() => commandMachine.provide({
    actors: {
      run: fromPromise<unknown, { command: string }>(async ({ input }) => {
        const [id, command] = input.command.split(':') as [string, DoorCommand];
        const event = await doorCommand(Number(id), command);
        const door = stored.output?.items.find((d) => d.id === Number(id));
        notify({ intent: 'success', title: door?.name ?? 'Door', message: `${door?.name ?? 'The door'} ${COMMANDS.find((c) => c.command === command)!.done}.`, timeoutMs: 3000 });
        return event;
      }),
    },
  }), [stored.output]);
  const commands = useActorRef(machine);
  const running = useSelector(commands, selectRunningCommand);
  const error = useSelector(commands, selectCommandError);
  const [confirm, setConfirm] = useState<LiveDoor | null>(null);
  const run = (door: LiveDoor, command: DoorCommand) => commands.send({ type: 'command.run', command: key(door.id, command) });

  return (
    <div className="gh-page" data-testid="doors">
      <PageHeader title="Doors" icon="key-enter"
        description={<>Every door of this client with its live state.{' '}
          {countDoors(doors).map((c) => <Tag key={c.status} minimal round intent={doorStateOf(c.status).intent} className="gh-mr">{c.count} {doorStateOf(c.status).label.toLowerCase()}</Tag>)}</>}
        actions={<Button icon="refresh" variant="outlined" loading={stored.status === 'active'} onClick={stored.reload}>Refresh</Button>} />
      {error && <Callout intent="danger" icon="error" className="gh-mb" data-testid="door-command-error">{error}</Callout>}
      {stored.status === 'error' && <NonIdealState icon="error" title="The doors could not be loaded" action={<Button icon="refresh" text="Try again" onClick={stored.reload} />} />}
      {!stored.output && stored.status !== 'error' && <NonIdealState icon={<Spinner />} title="Loading doors…" />}
      {stored.output && (
        <HTMLTable compact striped interactive className="gh-table-full" data-testid="doors-table">
          <thead><tr><th>Door</th><th>Division</th><th>State</th>{canControl && <th>Control</th>}</tr></thead>
          <tbody>
            {doors.map((d) => {
              const state = doorStateOf(d.status);
              return (
                <tr key={d.id} data-testid="door-row" aria-label={d.name}>
                  <td>{d.name}</td>
                  <td>{d.divisionId !== null ? divisionName.get(d.divisionId) ?? '' : ''}</td>
                  <td><Tag intent={state.intent} minimal={!state.problem} data-testid="door-state" title={d.live ? 'Live' : 'Last stored state'}>{state.label}</Tag></td>
                  {canControl && (
                    <td>
                      <ButtonGroup variant="outlined" size="small">
                        {COMMANDS.map((c) => (
                          <Button key={c.command} icon={c.icon} text={c.label} loading={running === key(d.id, c.command)} disabled={running !== null}
                            onClick={() => (c.command === 'unlock' ? setConfirm(d) : run(d, c.command))} data-testid={`door-${c.command}`} />
                        ))}
                      </ButtonGroup>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      )}
      <Alert isOpen={confirm !== null} intent="warning" icon="unlock" confirmButtonText="Unlock" cancelButtonText="Cancel"
        onConfirm={() => { if (confirm) run(confirm, 'unlock'); setConfirm(null); }} onCancel={() => setConfirm(null)}>
        <p>Unlock <strong>{confirm?.name}</strong>? It stays unlocked until someone locks it again.</p>
      </Alert>
    </div>
  );
}
