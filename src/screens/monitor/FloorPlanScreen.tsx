// /monitor/floor-plan [0.2.3.0] (issue 12): the client's floor plans (configured at /configure/floor-plan) with each
// pinned door coloured by its live state (the doors screen's heart-beats over the stored list, useLiveDoors). Doors
// that need attention pulse on the plan and are counted above it. A pin (or the door's row in the list below the
// plan, which is how a phone reads it) chooses the door: its state, last change and, for holders of door control,
// the commands its state calls for. Without door rights the pins show where the doors are, without their state.
// Floor plan properties [0.7.3.1] choose the plan it opens with, whether pins carry names and how big they are.
// Issue 50: a time slider (FloorPlanTimeBar, machines/floorPlanTime.ts) shows the plan as it stood at a past moment —
// the doors' states and modes, the open alarms, the threat level and who was in which zone — with the commands off.
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Alert, Button, ButtonGroup, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { doorCommandsFor, hasPrivilege, PRIV, type DoorCommand } from '../../../contract';
import { selectRunningCommand } from '../../../machines/command';
import { selectClientId, selectHeldPrivileges } from '../../../machines/session.selectors';
import { selectInPast, selectPastPlan } from '../../../machines/floorPlanTime.selectors';
import { useRouteInfo } from '../../app/RouteContext';
import { useReading } from '../../hooks/useReading';
import { useSystemActor } from '../../hooks/useSystemActor';
import { useViewActor } from '../../hooks/useViewActor';
import { routeDescription, routeTitle, tx, useLocale } from '../../i18n';
import { notify } from '../../hooks/console';
import { PageHeader } from '../../ui/PageHeader';
import { useTime } from '../../ui/time';
import { countDoors, doorStateOf, type LiveDoor } from '../configure/doorStatus';
import { useLiveDoors } from '../configure/useLiveDoors';
import { planShown } from './planShown';
import { FloorPlanTimeBar } from './FloorPlanTimeBar';
import { FloorPlanPastPanel } from './FloorPlanPastPanel';
import './floorPlan.css';

interface PlanRow {
  id: number;
  name: string;
  description: string | null;
}
interface Plan extends PlanRow {
  image: string | null;
  doors: { id: number; doorId: number; x: number; y: number }[];
}

const COMMAND_LABEL: Record<DoorCommand, string> = { lock: 'Lock', unlock: 'Unlock', 'momentary-unlock': 'Open briefly' };

export function FloorPlanScreen() {
  const { route } = useRouteInfo();
  useLocale();
  const session = useSystemActor('session');
  const clientId = useSelector(session, selectClientId);
  const held = useSelector(session, selectHeldPrivileges);
  const seesDoors = hasPrivilege(held, [PRIV.doors.view]);
  const controls = hasPrivilege(held, [PRIV.doors.control]);
  const configures = hasPrivilege(held, ['0.4.15.2']);
  const plans = useReading<PlanRow[]>('floorPlansReading', { input: { clientId } });
  const props = useReading<{ defaultPlanId: number | null; showDoorNames: boolean; pinSize: string }>('floorPlanPropertiesReading', { input: clientId });
  const [params, setParams] = useSearchParams();
  const chosenId = planShown(
    Number(params.get('plan')) || null,
    plans.output,
    props.output ? props.output.defaultPlanId : props.busy && !props.failed ? undefined : null,
  );
  const showNames = props.output?.showDoorNames ?? true;
  const pinSize = props.output?.pinSize ?? 'medium';
  const plan = useReading<Plan>('floorPlanReading', { input: chosenId, key: chosenId });
  const { doors } = useLiveDoors(seesDoors);
  const byId = useMemo(() => new Map((doors ?? []).map((d) => [d.id, d])), [doors]);
  // visual: the door chosen on the plan, and the command being confirmed
  const [chosenDoor, setChosenDoor] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<LiveDoor | null>(null);
  const time = useTime();
  useEffect(() => setChosenDoor(null), [chosenId]);

  // door commands, one at a time (`<doorId>|<command>|<name>`); each answer is said in a toast
  const commands = useViewActor('floorPlanDoorCommands');
  useEffect(() => {
    const sub = commands.on('command.done', ({ command: sent }) => {
      const [, command, name] = sent.split('|') as [string, DoorCommand, string];
      notify({ intent: 'success', title: name, message: tx('{door}: {command} sent.', { door: name, command: tx(COMMAND_LABEL[command]) }), timeoutMs: 3000 });
    });
    return () => sub.unsubscribe();
  }, [commands]);
  const running = useSelector(commands, selectRunningCommand);
  // the time slider: live, or the plan at a past moment (its doors' states replace the live ones, commands are off)
  const timeSlider = useViewActor('floorPlanTimeLogic', { input: { planId: chosenId ?? null } });
  useEffect(() => timeSlider.send({ type: 'plan.chosen', planId: chosenId ?? null }), [timeSlider, chosenId]);
  const inPast = useSelector(timeSlider, selectInPast);
  const past = useSelector(timeSlider, selectPastPlan);
  const pastDoors = useMemo(() => new Map((past?.doors ?? []).map((d) => [d.doorId, d])), [past]);
  const run = (d: LiveDoor, command: DoorCommand) => commands.send({ type: 'command.run', command: `${d.id}|${command}|${d.name}` });

  const current = plan.output ?? null;
  // in the past a door is drawn as it stood then: its state and mode at the moment (none known: no state)
  const asThen = (d: LiveDoor | null, doorId: number): LiveDoor | null => {
    if (!inPast) return d;
    const then = pastDoors.get(doorId);
    if (!d || !then?.status) return null;
    return { ...d, status: then.status, mode: then.mode ?? d.mode, lastChangedAt: then.changedAt };
  };
  const pinned = (current?.doors ?? []).map((p) => ({ ...p, door: asThen(byId.get(p.doorId) ?? null, p.doorId) }));
  const live = pinned.map((p) => p.door).filter((d): d is LiveDoor => d !== null);
  const attention = live.filter((d) => doorStateOf(d.status).problem).length;
  const chosen = chosenDoor === null ? null : (pinned.find((p) => p.doorId === chosenDoor)?.door ?? null);
  const nameOf = (doorId: number) => byId.get(doorId)?.name ?? tx('Door {n}', { n: doorId });

  return (
    <div className="gh-page" data-testid="floor-plan-monitor">
      <PageHeader
        title={routeTitle(route)}
        icon="map"
        description={routeDescription(route)}
        actions={
          <>
            {(plans.output?.length ?? 0) > 0 && (
              <HTMLSelect
                aria-label={tx('Floor plan')}
                value={chosenId ?? ''}
                onChange={(e) => setParams({ plan: e.currentTarget.value }, { replace: true })}
                data-testid="floor-plan-select"
                options={(plans.output ?? []).map((p) => ({ value: p.id, label: p.name }))}
              />
            )}
            {configures && chosenId && (
              <Link to={`/configure/floor-plan/edit/${chosenId}`} className="bp6-button bp6-minimal">
                <span className="bp6-icon bp6-icon-edit" aria-hidden /> <span className="bp6-button-text">{tx('Edit plan')}</span>
              </Link>
            )}
          </>
        }
      />
      {plans.busy && !plans.output && <NonIdealState icon={<Spinner />} title={tx('Loading floor plans…')} />}
      {plans.output && plans.output.length === 0 && (
        <NonIdealState
          icon="map"
          title={tx('No floor plans')}
          description={tx('A floor plan is a picture of a floor with the doors pinned on it.')}
          action={
            hasPrivilege(held, ['0.4.15.1']) ? (
              <Link to="/configure/floor-plan/add" className="bp6-button bp6-intent-primary">
                {tx('Add a floor plan')}
              </Link>
            ) : undefined
          }
        />
      )}
      {current && <FloorPlanTimeBar actor={timeSlider} />}
      {current && (
        <div className={`gh-plan${inPast ? ' gh-plan--past' : ''}`}>
          <p className="gh-plan__summary" data-testid="floor-plan-summary">
            {seesDoors ? (
              <>
                <Tag
                  round
                  intent={attention ? 'danger' : 'success'}
                  icon={attention ? 'warning-sign' : 'tick-circle'}
                  minimal={!attention}
                  data-testid="floor-plan-attention"
                >
                  {attention ? tx('{n} need attention', { n: attention }) : tx('None needs attention')}
                </Tag>{' '}
                {countDoors(live).map((c) => (
                  <Tag key={c.status} minimal round intent={doorStateOf(c.status).intent} className="gh-mr">
                    {c.count} {tx(doorStateOf(c.status).label).toLowerCase()}
                  </Tag>
                ))}
              </>
            ) : (
              <span className="bp6-text-muted">{tx('Door states need the right to see doors.')}</span>
            )}
          </p>
          {current.image ? (
            <div className={`gh-plan__frame gh-plan__frame--${pinSize}`} data-testid="floor-plan-frame" data-pin-size={pinSize}>
              <img src={current.image} alt={current.name} />
              {pinned.map((p) => {
                const state = p.door ? doorStateOf(p.door.status, p.door.mode) : null;
                return (
                  <button
                    type="button"
                    key={p.id}
                    data-testid="floor-plan-pin"
                    data-door={p.doorId}
                    data-state={p.door?.status ?? ''}
                    className={`gh-plan__pin gh-plan__pin--${state?.intent ?? 'none'}${state?.problem ? ' gh-plan__pin--problem' : ''}${chosenDoor === p.doorId ? ' gh-plan__pin--chosen' : ''}`}
                    style={{ left: `${p.x / 10}%`, top: `${p.y / 10}%` }}
                    title={`${nameOf(p.doorId)}${state ? `: ${tx(state.label)}` : ''}`}
                    aria-label={`${nameOf(p.doorId)}${state ? `: ${tx(state.label)}` : ''}`}
                    onClick={() => setChosenDoor(p.doorId)}
                  >
                    {showNames && (
                      <span className="gh-plan__pin-label" data-testid="floor-plan-pin-label">
                        {nameOf(p.doorId)}
                      </span>
                    )}
                  </button>
                );
              })}
            </div>
          ) : (
            <NonIdealState icon="media" title={tx('This plan has no picture yet')} />
          )}
          <HTMLTable compact striped className="gh-table-full gh-plan__doors" data-testid="floor-plan-doors">
            <thead>
              <tr>
                <th>{tx('Door')}</th>
                {seesDoors && <th>{tx('State')}</th>}
                {seesDoors && <th className="gh-plan__changed">{tx('Last change')}</th>}
                {controls && !inPast && <th>{tx('Control')}</th>}
              </tr>
            </thead>
            <tbody>
              {pinned.map((p) => {
                const d = p.door;
                const state = d ? doorStateOf(d.status, d.mode) : null;
                return (
                  <tr
                    key={p.id}
                    data-testid="floor-plan-door"
                    aria-label={nameOf(p.doorId)}
                    className={chosenDoor === p.doorId ? 'gh-plan__row--chosen' : undefined}
                    onClick={() => setChosenDoor(p.doorId)}
                  >
                    <td>{nameOf(p.doorId)}</td>
                    {seesDoors && (
                      <td>
                        {state && (
                          <Tag intent={state.intent} icon={state.icon} minimal={!state.problem} data-testid="floor-plan-door-state">
                            {tx(state.label)}
                          </Tag>
                        )}
                      </td>
                    )}
                    {seesDoors && (
                      <td className="gh-plan__changed">
                        {d?.lastChangedAt
                          ? inPast
                            ? time.dateTime(d.lastChangedAt)
                            : time.ago(d.lastChangedAt, Math.max(Date.now(), Date.parse(d.lastChangedAt)))
                          : '—'}
                      </td>
                    )}
                    {controls && !inPast && (
                      <td>
                        {d && d.mode !== 'locked-down' && (
                          <ButtonGroup variant="outlined" size="small" className="gh-plan__commands">
                            {doorCommandsFor(d.status, d.mode)
                              .filter((c) => !c.force)
                              .map(({ command }) => (
                                <Button
                                  key={command}
                                  text={tx(COMMAND_LABEL[command])}
                                  loading={running === `${d.id}|${command}|${d.name}`}
                                  disabled={running !== null}
                                  aria-label={`${COMMAND_LABEL[command]} ${d.name}`}
                                  data-testid={`floor-plan-${command}`}
                                  onClick={(e) => {
                                    e.stopPropagation();
                                    if (command === 'unlock') setConfirm(d);
                                    else run(d, command);
                                  }}
                                />
                              ))}
                          </ButtonGroup>
                        )}
                        {d?.mode === 'locked-down' && (
                          <Tag intent="danger" icon="lock">
                            {tx('Locked down')}
                          </Tag>
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
          {chosen && (
            <p className="bp6-text-muted" data-testid="floor-plan-chosen">
              {chosen.name}: {tx(doorStateOf(chosen.status, chosen.mode).label)}
            </p>
          )}
          {inPast && past && <FloorPlanPastPanel past={past} doorName={nameOf} />}
        </div>
      )}
      <Alert
        isOpen={confirm !== null && !inPast}
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
          {tx('Unlock')} <strong>{confirm?.name}</strong>? {tx('It stays unlocked until someone locks it again.')}
        </p>
      </Alert>
    </div>
  );
}
