// /configure/doors [0.4.5.0]: the selected client's doors with their live state (heart-beats over the stored
// status), division and last change, and for holders of door control [0.4.5.4] the commands that make sense for
// the door's live state (contract/doors.ts: locked → Open briefly / Unlock, unlocked → Lock, …). Doors that need
// attention (forced, held open, offline, tamper) are marked, listed first, counted in the header and can be shown
// alone. A lasting unlock asks first (a door left unlocked by a slip is a security hole); a momentary unlock does
// not: the controller relocks it by itself within seconds, and operators use it to let someone through at once.
// One command at a time, through the command machine; its spinner is on the button that runs. A success toasts
// here; a refusal (409: the door's state changed meanwhile) toasts through the api client (§8) and stays in a
// callout until the next try. Holders of door control also see and set the threat level here (DoorsThreatPanel):
// a security operator may not open the threat levels screen. Issue 29: a door a threat level holds locked (the
// server's list says so, `heldBy`, by the access engine's rule) is marked with the level's name, offers Lock only
// (the server refuses the rest with 409) and says why on the row, as a locked-down door does. On a phone (≤ 600 px)
// each door is a card (CSS, as the events: name, then state, division and last change, then its commands). Issue 47: a
// door in a zone of hard anti-passback whose Gatehouse Edge controller is offline says its anti-passback is soft until
// it reconnects (the server's list, `softApb`).
import { getLocale, say, tx } from '../../i18n';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Button, ButtonGroup, Callout, FormGroup, HTMLSelect, HTMLTable, Icon, NonIdealState, Spinner, Switch, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { DOOR_MOMENTARY_MS, doorCommandsFor, hasPrivilege, PRIV, type DoorCommand } from '../../../contract';
import { selectCommandError, selectRunningCommand } from '../../../machines/command';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { useViewActor } from '../../hooks/useViewActor';
import { useSystemActor } from '../../hooks/useSystemActor';
import { useTime } from '../../ui/time';
import { notify } from '../../hooks/console';
import { PageHeader } from '../../ui/PageHeader';
import { attentionFirst, countDoors, doorStateOf, type LiveDoor } from './doorStatus';
import { DoorsThreatPanel } from './DoorsThreatPanel';
import { useLiveDoors } from './useLiveDoors';
import { TableScroll } from '../../ui/TableScroll';
import { doorSoftApbText } from '../../resources/controllers';
import './doors.css';

const seconds = Math.round(DOOR_MOMENTARY_MS / 1000);
const COMMANDS: Record<DoorCommand, { label: string; icon: 'lock' | 'unlock' | 'time'; done: string; title: string }> = {
  lock: { label: 'Lock', icon: 'lock', done: 'locked', title: 'Lock the door' },
  'momentary-unlock': {
    label: 'Open briefly',
    icon: 'time',
    done: `unlocked for ${seconds} s; it relocks by itself`,
    title: `Unlock for ${seconds} s, then relock by itself (again: ${seconds} s from now)`,
  },
  unlock: { label: 'Unlock', icon: 'unlock', done: 'unlocked; it stays unlocked until someone locks it', title: 'Unlock until someone locks it' },
};
/** A command the door's state does not call for, offered where re-sending it helps (a forced door's Lock). */
const FORCED: Partial<Record<DoorCommand, { label: string; done: string; title: string }>> = {
  lock: { label: 'Lock again', done: 'lock command sent again', title: 'The lock reports locked but the door was forced: send Lock again' },
};
/** The command machine runs one string command: which door, what, and whether forced. */
const key = (doorId: number, command: DoorCommand, force: boolean) => `${doorId}:${command}:${force ? 'force' : ''}`;

/** A locked-down door, or one a threat level holds locked, takes Lock only (the server refuses the rest until the
 *  lockdown is released or the level lowered). */
const commandsOf = (d: LiveDoor) =>
  d.mode === 'locked-down' || d.heldBy ? doorCommandsFor(d.status, d.mode).filter((c) => c.command === 'lock') : doorCommandsFor(d.status, d.mode);

export function DoorsScreen() {
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const canControl = hasPrivilege(held, [PRIV.doors.control]);
  const canEdit = hasPrivilege(held, [PRIV.doors.edit]);
  const canAdd = hasPrivilege(held, [PRIV.doors.add]);
  const { doors, loading, failed, reload } = useLiveDoors();
  const reloadRef = useRef(reload); // latest: the list's reload, for the change-notice subscription made once
  reloadRef.current = reload;
  const lockedDown = (doors ?? []).filter((d) => d.mode === 'locked-down').length;
  const [asking, setAsking] = useState<'on' | 'off' | null>(null); // visual: the lockdown question is open
  const [where, setWhere] = useState('all'); // visual: which division the lockdown question is about
  // a lockdown may hold one site or building: the divisions the doors are in (a door's division and those inside
  // it go together on the server)
  const tree = useMemo(() => {
    const seen = new Map<number, string>();
    for (const d of doors ?? []) if (d.divisionId !== null && d.divisionName) seen.set(d.divisionId, d.divisionName);
    return [...seen].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
  }, [doors]);
  const time = useTime();
  const names = useRef(new Map<number, string>()); // visual: for the toast's wording only
  for (const d of doors ?? []) names.current.set(d.id, d.name);

  // one command at a time; each answer is said in a toast (a lockdown's also reads the doors again)
  const commands = useViewActor('doorCommands');
  useEffect(() => {
    const sub = commands.on('command.done', ({ command: done, result }) => {
      if (done.startsWith('lockdown:')) {
        const on = done.split(':')[1] === 'on';
        const answer = result as { doors: number; unreached?: { doorId: number; message: string }[] };
        // issue 47: doors of a Gatehouse Edge controller that is offline are locked down on the server, and at the door
        // once it reconnects; the operator is told which
        if (on && answer.unreached?.length)
          notify({
            intent: 'warning',
            title: tx('Not reached yet'),
            message: `${tx('{n} doors are on an edge controller that is offline: they lock down when it reconnects.', { n: answer.unreached.length })} ${answer.unreached
              .map((u) => names.current.get(u.doorId) ?? `#${u.doorId}`)
              .join(', ')}`,
            timeoutMs: 10_000,
          });
        notify(
          on
            ? {
                intent: 'danger',
                title: tx('Lockdown'),
                message: tx('{n} doors are locked down. They open for nobody until the lockdown is released.', { n: answer.doors }),
                timeoutMs: 6000,
              }
            : {
                intent: 'success',
                title: tx('Lockdown released'),
                message: tx('{n} doors are back in the mode they had.', { n: answer.doors }),
                timeoutMs: 6000,
              },
        );
        reloadRef.current();
        return;
      }
      const [id, command, force] = done.split(':') as [string, DoorCommand, string];
      const name = names.current.get(Number(id)) ?? `Door ${id}`;
      notify({ intent: 'success', title: name, message: `${name} ${(force ? FORCED[command]! : COMMANDS[command]).done}.`, timeoutMs: 3000 });
    });
    return () => sub.unsubscribe();
  }, [commands]);
  const running = useSelector(commands, selectRunningCommand);
  const error = useSelector(commands, selectCommandError);
  const [confirm, setConfirm] = useState<LiveDoor | null>(null); // visual: which door's unlock is being confirmed
  const [onlyAttention, setOnlyAttention] = useState(false); // visual: a filter of the list
  // issue 32, keyboard alone: a command's button is disabled while it runs and may be gone when the door's state
  // changes (an opened door offers other commands), which drops the keyboard's focus to the page. The focus goes back
  // to the row it left: the same command if the door still offers it, else the row's first command, else its name.
  const table = useRef<HTMLTableElement>(null);
  const returnFocus = useRef<{ doorId: number; command: DoorCommand } | null>(null); // visual: where the keyboard focus goes back after a command
  const run = (door: LiveDoor, command: DoorCommand, force = false) => {
    const from = document.activeElement;
    returnFocus.current = from instanceof HTMLElement && from.closest(`[data-door-id="${door.id}"]`) ? { doorId: door.id, command } : null;
    commands.send({ type: 'command.run', command: key(door.id, command, force) });
  };
  useEffect(() => {
    const back = returnFocus.current;
    if (!back || running !== null || (document.activeElement && document.activeElement !== document.body)) return;
    const row = table.current?.querySelector(`[data-door-id="${back.doorId}"]`);
    const to = row?.querySelector<HTMLElement>(`[data-testid^="door-${back.command}"]:enabled`) ?? row?.querySelector<HTMLElement>('button:enabled, a[href]');
    to?.focus();
  }, [running, doors]);
  useEffect(() => {
    // the keyboard or the mouse has gone elsewhere: nothing to give back any more
    const away = (e: Event) => {
      if (e.type === 'pointerdown' || !(e.target instanceof Node && table.current?.contains(e.target))) returnFocus.current = null;
    };
    document.addEventListener('pointerdown', away, true);
    document.addEventListener('focusin', away, true);
    return () => {
      document.removeEventListener('pointerdown', away, true);
      document.removeEventListener('focusin', away, true);
    };
  }, []);
  const now = Date.now();
  const sorted = useMemo(() => attentionFirst(doors ?? []), [doors]);
  const attention = sorted.filter((d) => doorStateOf(d.status).problem).length;
  const shown = onlyAttention ? sorted.filter((d) => doorStateOf(d.status).problem) : sorted;

  return (
    <div className="gh-page" data-testid="doors">
      <PageHeader
        title={tx('Doors')}
        icon="key-enter"
        description={
          <>
            {tx('Every door of this client with its live state.')}{' '}
            {doors && (
              <Tag
                round
                intent={attention ? 'danger' : 'success'}
                icon={attention ? 'warning-sign' : 'tick-circle'}
                minimal={!attention}
                className="gh-mr"
                data-testid="doors-attention-count"
              >
                {attention ? tx(attention === 1 ? '{n} needs attention' : '{n} need attention', { n: attention }) : tx('None needs attention')}
              </Tag>
            )}
            {countDoors(doors ?? []).map((c) => (
              <Tag key={c.status} minimal round intent={doorStateOf(c.status).intent} className="gh-mr">
                {c.count} {getLocale() === 'en' ? doorStateOf(c.status).label.toLowerCase() : tx(doorStateOf(c.status).label)}
              </Tag>
            ))}
          </>
        }
        actions={
          <>
            <Switch
              checked={onlyAttention}
              onChange={(e) => setOnlyAttention(e.currentTarget.checked)}
              label={tx('Needs attention only')}
              className="gh-doors__filter"
              data-testid="doors-attention-only"
            />
            <Button icon="refresh" variant="outlined" loading={loading} onClick={reload}>
              {tx('Refresh')}
            </Button>
            {canControl && doors && lockedDown > 0 && (
              <Button
                icon="unlock"
                intent="success"
                disabled={running !== null}
                loading={running?.startsWith('lockdown:off') ?? false}
                onClick={() => {
                  setWhere('all');
                  setAsking('off');
                }}
                data-testid="lockdown-release"
              >
                {tx('Release lockdown')}
              </Button>
            )}
            {canControl && doors && lockedDown < doors.length && (
              <Button
                icon="lock"
                intent="danger"
                disabled={running !== null}
                loading={running?.startsWith('lockdown:on') ?? false}
                onClick={() => {
                  setWhere('all');
                  setAsking('on');
                }}
                data-testid="lockdown"
              >
                {lockedDown ? tx('Lock down more doors') : tx('Lock down all doors')}
              </Button>
            )}
            {canAdd && (
              <Link to="/configure/doors/add" className="bp6-button bp6-intent-primary" data-testid="add-door">
                <span className="bp6-icon bp6-icon-plus" aria-hidden />{' '}
                <span className="bp6-button-text">{tx('Add {what}', { what: tx('Door').toLowerCase() })}</span>
              </Link>
            )}
          </>
        }
      />
      {canControl && <DoorsThreatPanel />}
      {error && (
        <Callout intent="danger" icon="error" className="gh-mb" data-testid="door-command-error">
          {say(error)}
        </Callout>
      )}
      {failed && !doors && (
        <NonIdealState icon="error" title={tx('The doors could not be loaded')} action={<Button icon="refresh" text={tx('Try again')} onClick={reload} />} />
      )}
      {!doors && !failed && <NonIdealState icon={<Spinner />} title={tx('Loading doors…')} />}
      {doors && doors.length === 0 && <NonIdealState icon="key-enter" title={tx('No doors')} description={tx('This client has no doors yet.')} />}
      {doors && doors.length > 0 && onlyAttention && shown.length === 0 && (
        <NonIdealState icon="tick-circle" title={tx('No door needs attention')} description={tx('Every door is locked, unlocked or closed as expected.')} />
      )}
      {doors && shown.length > 0 && (
        <TableScroll label={tx('Doors')} testId="doors-table-scroll">
          <HTMLTable compact striped className="gh-table-full gh-doors" data-testid="doors-table" ref={table}>
            <thead>
              <tr>
                <th>{tx('Door')}</th>
                <th>{tx('Division')}</th>
                <th>{tx('State')}</th>
                <th>{tx('Last change')}</th>
                {canControl && <th>{tx('Control')}</th>}
              </tr>
            </thead>
            <tbody>
              {shown.map((d) => {
                const state = doorStateOf(d.status, d.mode);
                return (
                  <tr
                    key={d.id}
                    data-testid="door-row"
                    data-door-id={d.id}
                    aria-label={d.name}
                    data-attention={state.problem || undefined}
                    data-held={d.heldBy ? d.heldBy.kind : undefined}
                    className={state.problem ? `gh-doors__row--attention gh-doors__row--${state.intent}` : undefined}
                  >
                    <td className="gh-doors__name">
                      {state.problem && (
                        <Icon icon="warning-sign" intent={state.intent} className="gh-mr" title={tx('Needs attention')} data-testid="door-attention" />
                      )}
                      {d.mode === 'locked-down' && (
                        <Tag intent="danger" icon="lock" className="gh-mr" data-testid="door-locked-down">
                          {tx('Locked down')}
                        </Tag>
                      )}
                      {d.mode !== 'locked-down' && d.heldBy && (
                        <Tag intent="danger" icon="shield" className="gh-mr" data-testid="door-held">
                          {tx('Held by threat level {level}', { level: d.heldBy.name })}
                        </Tag>
                      )}
                      {d.softApb && (
                        <Tag intent="warning" icon="offline" multiline className="gh-mr" data-testid="door-soft-apb">
                          {doorSoftApbText(d.softApb.controllers)}
                        </Tag>
                      )}
                      <span className="gh-doors__label">
                        {canEdit ? (
                          <Link to={`/configure/doors/edit/${d.id}`} data-testid="door-edit">
                            {d.name}
                          </Link>
                        ) : (
                          d.name
                        )}
                      </span>
                    </td>
                    <td className="gh-doors__division">{d.divisionName ?? <span className="bp6-text-muted">—</span>}</td>
                    <td className="gh-doors__state">
                      <Tag
                        intent={state.intent}
                        icon={state.icon}
                        minimal={!state.problem}
                        data-testid="door-state"
                        title={d.live ? tx('Live') : tx('Last stored state')}
                      >
                        {tx(state.label)}
                      </Tag>
                    </td>
                    <td className="gh-doors__changed" data-testid="door-changed" title={d.lastChangedAt ? time.dateTime(d.lastChangedAt, true) : undefined}>
                      {d.lastChangedAt ? time.ago(d.lastChangedAt, Math.max(now, Date.parse(d.lastChangedAt))) : <span className="bp6-text-muted">—</span>}
                    </td>
                    {canControl && (
                      <td className="gh-doors__control">
                        {d.mode !== 'locked-down' && d.heldBy && (
                          <span className="bp6-text-muted gh-doors__reason" data-testid="door-held-reason">
                            {tx('Locked until the threat level is lowered')}
                          </span>
                        )}
                        {commandsOf(d).length === 0 ? (
                          d.mode !== 'locked-down' && d.heldBy ? null : (
                            <span className="bp6-text-muted" data-testid="door-no-commands">
                              {d.mode === 'locked-down' ? tx('Held by the lockdown') : tx('No command reaches it')}
                            </span>
                          )
                        ) : (
                          <ButtonGroup variant="outlined" size="small">
                            {commandsOf(d).map(({ command, force }) => {
                              const c = force ? { ...COMMANDS[command], ...FORCED[command]! } : COMMANDS[command];
                              return (
                                <Button
                                  key={command}
                                  icon={c.icon}
                                  text={tx(c.label)}
                                  title={tx(c.title)}
                                  intent={force ? 'warning' : undefined}
                                  loading={running === key(d.id, command, force)}
                                  disabled={running !== null}
                                  aria-label={`${c.label} ${d.name}`}
                                  onClick={() => (command === 'unlock' ? setConfirm(d) : run(d, command, force))}
                                  data-testid={`door-${command}${force ? '-force' : ''}`}
                                />
                              );
                            })}
                          </ButtonGroup>
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        </TableScroll>
      )}
      <Alert
        isOpen={asking !== null}
        intent={asking === 'on' ? 'danger' : 'success'}
        icon={asking === 'on' ? 'lock' : 'unlock'}
        canEscapeKeyCancel
        confirmButtonText={asking === 'on' ? (where === 'all' ? tx('Lock down all doors') : tx('Lock down these doors')) : tx('Release lockdown')}
        cancelButtonText={tx('Cancel')}
        onConfirm={() => {
          commands.send({ type: 'command.run', command: `lockdown:${asking}:${where}` });
          setAsking(null);
        }}
        onCancel={() => setAsking(null)}
      >
        <p>
          {asking === 'on'
            ? tx('Lock every door you control now? Each door is locked and opens for no card, PIN or command until the lockdown is released.')
            : tx('Release the lockdown? Each door goes back to the mode it had before.')}
        </p>
        <FormGroup label={tx('Where')} labelFor="lockdown-where">
          <HTMLSelect id="lockdown-where" fill value={where} onChange={(e) => setWhere(e.currentTarget.value)} data-testid="lockdown-where">
            <option value="all">{asking === 'on' ? tx('Every door you control') : tx('Every locked-down door')}</option>
            {tree.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
      </Alert>
      <Alert
        isOpen={confirm !== null}
        intent="warning"
        icon="unlock"
        confirmButtonText={tx('Unlock')}
        cancelButtonText={tx('Cancel')}
        canEscapeKeyCancel
        onConfirm={() => {
          if (confirm) run(confirm, 'unlock');
          setConfirm(null);
        }}
        onCancel={() => setConfirm(null)}
      >
        <p>
          {tx('Unlock')} <strong>{confirm?.name}</strong>? It stays unlocked until someone locks it again.
        </p>
      </Alert>
    </div>
  );
}
