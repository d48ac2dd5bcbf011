// "Why?" on a denied swipe (issue 12): a button on the event's row that asks the server to decide the stored swipe
// again (GET /event/manage/events/:id/explain, through the command machine provided in src/system/readActors.ts: the view only
// sends and selects) and a
// drawer with the reason and each check of the chain, passed or failed. A swipe a Gatehouse Edge decided (issue 47) is
// explained from the chain its engine ran over the snapshot it held (offline: the version and when it was built), with
// today's rules beside it when they would decide otherwise.
import { useEffect, useState } from 'react';
import { Callout, Classes, Drawer, Icon, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { DECISION_EVENT_CODES, DECISION_LABELS, type DecisionStep, type Explanation } from '../../../contract/decision';
import { selectCommandError, selectCommandResult, selectRunningCommand } from '../../../machines/command';
import { useViewActor } from '../../hooks/useViewActor';
import { useTime } from '../../ui/time';
import { say, saySentence, useTx, type Locale } from '../../i18n';

const DENIED_CODES = new Set(Object.values(DECISION_EVENT_CODES).filter((c) => c !== DECISION_EVENT_CODES.granted));
/** A swipe the engine denied: the rows that offer "Why?". */
export const isDeniedSwipe = (code: number | string) => DENIED_CODES.has(Number(code));

/** The checks of the chain, in English: said with tx (src/i18n/text.ts has their zh-CN). */
export const WHY_CHECKS: Record<string, string> = {
  'card-format': 'Card format',
  credential: 'Credential',
  qr: 'QR code',
  identity: 'Identity',
  'door-mode': 'Door mode',
  pin: 'PIN',
  'access-group': 'Access group',
  schedule: 'Schedule',
  'anti-passback': 'Anti-passback',
  interlock: 'Interlock',
};

/**
 * "Why?" on a row. A row's button is plain (a live events table mounts hundreds of rows a second): the drawer, with
 * its command actor, exists only once it is asked for. Given `onWhy`, the screen shows one drawer for all its rows,
 * so the drawer stays when its row scrolls out of a live table; without it, the button shows its own.
 */
export function WhyButton({ eventId, onWhy }: { eventId: number; onWhy?: (eventId: number) => void }) {
  const tx = useTx();
  const [open, setOpen] = useState(false); // visual: this button's own drawer is shown
  return (
    <>
      <button
        type="button"
        className={`${Classes.BUTTON} ${Classes.MINIMAL} ${Classes.SMALL}`}
        data-testid="why-button"
        onClick={(ev) => {
          ev.stopPropagation();
          if (onWhy) onWhy(eventId);
          else setOpen(true);
        }}
      >
        <span className={Classes.BUTTON_TEXT}>{tx('Why?')}</span>
      </button>
      {open && <WhyDrawer eventId={eventId} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The drawer of one denied swipe: decides it again (through the explain command actor) and shows each check. */
/** Who swiped at which door, said in the console's language (the decision's label is its title). */
function swipeLine(result: Explanation, at: string, tx: ReturnType<typeof useTx>): string {
  return tx('{who} (card {card}) at {door}, {at}', {
    who: result.identityName ?? tx('Unknown card'),
    card: result.swipe.card,
    door: result.swipe.doorName ?? tx('door {id}', { id: result.swipe.doorId }),
    at,
  });
}

export function WhyDrawer({ eventId, onClose }: { eventId: number; onClose: () => void }) {
  const tx = useTx();
  const command = useViewActor('explainCommands');
  const running = useSelector(command, selectRunningCommand);
  const error = useSelector(command, selectCommandError);
  const result = useSelector(command, selectCommandResult) as Explanation | null;
  const { dateTime } = useTime();
  useEffect(() => {
    command.send({ type: 'command.run', command: String(eventId) });
  }, [command, eventId]);
  return (
    <>
      <Drawer isOpen onClose={onClose} title={tx('Why was this swipe denied?')} icon="help" size="min(480px, 100%)">
        <div className="bp6-drawer-body" style={{ padding: 16 }} data-testid="why-drawer">
          {error && (
            <Callout intent="danger" icon="error">
              {say(error)}
            </Callout>
          )}
          {!error && !result && running !== null && <p className="bp6-text-muted">{tx('Deciding the swipe again…')}</p>}
          {result && result.eventId === eventId && result.edge?.decided && <EdgeWhy result={result} />}
          {result && result.eventId === eventId && !result.edge?.decided && (
            <>
              <Callout
                intent={result.now.granted ? 'success' : 'danger'}
                icon={result.now.granted ? 'tick-circle' : 'disable'}
                data-testid="why-reason"
                title={tx(result.now.label)}
              >
                {swipeLine(result, dateTime(result.swipe.at), tx)}
                {result.stored.reason && result.stored.reason !== result.now.reason && (
                  <p style={{ marginTop: 8 }}>
                    {tx('When it happened the reason was “{reason}”; the configuration has changed since.', {
                      reason: tx(DECISION_LABELS[result.stored.reason] ?? result.stored.reason),
                    })}
                  </p>
                )}
              </Callout>
              <Steps steps={result.now.steps} />
            </>
          )}
        </div>
      </Drawer>
    </>
  );
}

/** A check's detail in the console's language: by its key and values (access/engine.ts fill, issue 48); a chain an
 *  older edge sent up has no key and is said as its English. */
export const stepDetail = (s: DecisionStep, loc?: Locale): string =>
  s.code ? saySentence({ message: s.detail, code: s.code, values: s.values ?? {} }, loc) : s.detail;

function Steps({ steps }: { steps: Explanation['now']['steps'] }) {
  const tx = useTx();
  return (
    <ol className="gh-why-steps" data-testid="why-steps" style={{ paddingLeft: 0, listStyle: 'none', marginTop: 16 }}>
      {steps.map((s, i) => (
        <li key={i} data-testid="why-step" style={{ display: 'flex', gap: 8, marginBottom: 8, alignItems: 'flex-start' }}>
          <Icon icon={s.ok ? 'tick-circle' : 'cross-circle'} intent={s.ok ? 'success' : 'danger'} style={{ marginTop: 2 }} />
          <span>
            <strong>{WHY_CHECKS[s.check] ? tx(WHY_CHECKS[s.check]) : s.check}</strong>: {stepDetail(s)}
          </span>
        </li>
      ))}
    </ol>
  );
}

/**
 * A swipe a Gatehouse Edge decided (issue 47): explained from the snapshot it was decided with, the chain its engine
 * ran there (offline, that snapshot may be days older than today's rules); today's rules are said beside it when they
 * would decide otherwise.
 */
function EdgeWhy({ result }: { result: Explanation }) {
  const tx = useTx();
  const { dateTime } = useTime();
  const edge = result.edge!;
  const d = edge.decided!;
  const built = edge.snapshotBuiltAt ? dateTime(edge.snapshotBuiltAt) : null;
  const how = {
    version: edge.snapshotVersion,
    built: built ? tx(' of {built}', { built }) : '',
    reached: edge.offline && edge.receivedAt ? tx('; it reached the server at {at}', { at: dateTime(edge.receivedAt) }) : '',
  };
  return (
    <>
      <Callout intent={d.granted ? 'success' : 'danger'} icon={d.granted ? 'tick-circle' : 'disable'} data-testid="why-reason" title={tx(d.label)}>
        {swipeLine(result, dateTime(result.swipe.at), tx)}
        <p style={{ marginTop: 8 }} data-testid="why-edge">
          <Tag minimal icon="offline" intent={edge.offline ? 'warning' : 'none'}>
            {edge.offline ? tx('Edge, offline') : tx('Edge')}
          </Tag>{' '}
          {edge.offline
            ? tx('Decided at the edge while offline, with snapshot version {version}{built}{reached}.', how)
            : tx('Decided at the edge, with snapshot version {version}{built}{reached}.', how)}
        </p>
      </Callout>
      <Steps steps={d.steps} />
      {result.now.reason !== d.reason && (
        <Callout intent="primary" icon="history" data-testid="why-today" style={{ marginTop: 8 }} title={tx('With today’s rules')}>
          {tx('The same swipe decided again now: {label}.', { label: tx(result.now.label) })}
          <Steps steps={result.now.steps} />
        </Callout>
      )}
    </>
  );
}
