// /configure/doors [0.4.5.0]: the selected client's doors with their live state (heart-beats over the stored
// status), division and last change, and for holders of door control [0.4.5.4] Lock / Open briefly / Unlock.
// A lasting unlock asks first (a door left unlocked by a slip is a security hole); a momentary unlock does not:
// the controller relocks it by itself within seconds, and operators use it to let someone through at once.
// One command at a time, through the command machine; its spinner is on the button that runs. A success toasts
// here; a refusal toasts through the api client (§8) and stays in a callout until the next try.
import { useMemo, useRef, useState } from 'react';
import { Alert, Button, ButtonGroup, Callout, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { hasPrivilege, PRIV, type DoorCommand } from '../../../contract';
import { commandMachine, selectCommandError, selectRunningCommand } from '../../../machines/command';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { doorCommand } from '../../api/endpoints';
import { useSystemActor } from '../../app/useSystemActor';
import { useTime } from '../../ui/time';
import { notify } from '../../system/notices';
import { PageHeader } from '../../ui/PageHeader';
import { countDoors, doorStateOf, type LiveDoor } from './doorStatus';
import { useLiveDoors } from './useLiveDoors';

const COMMANDS: { command: DoorCommand; label: string; icon: 'lock' | 'unlock' | 'time'; done: string }[] = [
  { command: 'lock', label: 'Lock', icon: 'lock', done: 'locked' },
  { command: 'momentary-unlock', label: 'Open briefly', icon: 'time', done: 'opened for a moment' },
  { command: 'unlock', label: 'Unlock', icon: 'unlock', done: 'unlocked' },
];
/** The command machine runs one string command: which door and what. */
const key = (doorId: number, command: DoorCommand) => `${doorId}:${command}`;

export function DoorsScreen() {
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const canControl = hasPrivilege(held, [PRIV.doors.control]);
  const { doors, loading, failed, reload } = useLiveDoors();
  const time = useTime();
  const names = useRef(new Map<number, string>()); // for the toast's wording only
  for (const d of doors ?? []) names.current.set(d.id, d.name);

  const machine = useMemo(() => commandMachine.provide({
    actors: {
      run: fromPromise<unknown, { command: string }>(async ({ input }) => {
        const [id, command] = input.command.split(':') as [string, DoorCommand];
        const event = await doorCommand(Number(id), command);
        const name = names.current.get(Number(id)) ?? `Door ${id}`;
        notify({ intent: 'success', title: name, message: `${name} ${COMMANDS.find((c) => c.command === command)!.done}.`, timeoutMs: 3000 });
        return event;
      }),
    },
  }), []);
  const commands = useActorRef(machine);
  const running = useSelector(commands, selectRunningCommand);
  const error = useSelector(commands, selectCommandError);
  const [confirm, setConfirm] = useState<LiveDoor | null>(null); // visual: which door's unlock is being confirmed
  const run = (door: LiveDoor, command: DoorCommand) => commands.send({ type: 'command.run', command: key(door.id, command) });
  const now = Date.now();

  return (
    <div className="gh-page" data-testid="doors">
      <PageHeader title="Doors" icon="key-enter"
        description={<>Every door of this client with its live state.{' '}
          {countDoors(doors ?? []).map((c) => <Tag key={c.status} minimal round intent={doorStateOf(c.status).intent} className="gh-mr">{c.count} {doorStateOf(c.status).label.toLowerCase()}</Tag>)}</>}
        actions={<Button icon="refresh" variant="outlined" loading={loading} onClick={reload}>Refresh</Button>} />
      {error && <Callout intent="danger" icon="error" className="gh-mb" data-testid="door-command-error">{error}</Callout>}
      {failed && !doors && <NonIdealState icon="error" title="The doors could not be loaded" action={<Button icon="refresh" text="Try again" onClick={reload} />} />}
      {!doors && !failed && <NonIdealState icon={<Spinner />} title="Loading doors…" />}
      {doors && doors.length === 0 && <NonIdealState icon="key-enter" title="No doors" description="This client has no doors yet." />}
      {doors && doors.length > 0 && (
        <HTMLTable compact striped className="gh-table-full gh-doors" data-testid="doors-table">
          <thead><tr><th>Door</th><th>Division</th><th>State</th><th>Last change</th>{canControl && <th>Control</th>}</tr></thead>
          <tbody>
            {doors.map((d) => {
              const state = doorStateOf(d.status);
              return (
                <tr key={d.id} data-testid="door-row" aria-label={d.name}>
                  <td className="gh-doors__name">{d.name}</td>
                  <td>{d.divisionName ?? <span className="bp6-text-muted">—</span>}</td>
                  <td><Tag intent={state.intent} minimal={!state.problem} data-testid="door-state" title={d.live ? 'Live' : 'Last stored state'}>{state.label}</Tag></td>
                  <td data-testid="door-changed" title={d.lastChangedAt ? time.dateTime(d.lastChangedAt, true) : undefined}>
                    {d.lastChangedAt ? time.ago(d.lastChangedAt, Math.max(now, Date.parse(d.lastChangedAt))) : <span className="bp6-text-muted">—</span>}
                  </td>
                  {canControl && (
                    <td>
                      <ButtonGroup variant="outlined" size="small">
                        {COMMANDS.map((c) => (
                          <Button key={c.command} icon={c.icon} text={c.label} loading={running === key(d.id, c.command)} disabled={running !== null}
                            aria-label={`${c.label} ${d.name}`}
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
      <Alert isOpen={confirm !== null} intent="warning" icon="unlock" confirmButtonText="Unlock" cancelButtonText="Cancel" canEscapeKeyCancel
        onConfirm={() => { if (confirm) run(confirm, 'unlock'); setConfirm(null); }} onCancel={() => setConfirm(null)}>
        <p>Unlock <strong>{confirm?.name}</strong>? It stays unlocked until someone locks it again.</p>
      </Alert>
    </div>
  );
}
