// "Why?" on a denied swipe (issue 12): a button on the event's row that asks the server to decide the stored swipe
// again (GET /event/manage/events/:id/explain, through the command machine provided in src/system/readActors.ts: the view only
// sends and selects) and a
// drawer with the reason and each check of the chain, passed or failed.
import { useEffect, useState } from 'react';
import { Callout, Classes, Drawer, Icon, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { DECISION_EVENT_CODES, type Explanation } from '../../../contract/decision';
import { selectCommandError, selectCommandResult, selectRunningCommand } from '../../../machines/command';
import { useViewActor } from '../../hooks/useViewActor';
import { useTime } from '../../ui/time';
import { say, tx } from '../../i18n';

const DENIED_CODES = new Set(Object.values(DECISION_EVENT_CODES).filter((c) => c !== DECISION_EVENT_CODES.granted));
/** A swipe the engine denied: the rows that offer "Why?". */
export const isDeniedSwipe = (code: number | string) => DENIED_CODES.has(Number(code));

const CHECKS: Record<string, string> = {
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
export function WhyDrawer({ eventId, onClose }: { eventId: number; onClose: () => void }) {
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
      <Drawer isOpen onClose={onClose} title="Why was this swipe denied?" icon="help" size="min(480px, 100%)">
        <div className="bp6-drawer-body" style={{ padding: 16 }} data-testid="why-drawer">
          {error && (
            <Callout intent="danger" icon="error">
              {say(error)}
            </Callout>
          )}
          {!error && !result && running !== null && <p className="bp6-text-muted">Deciding the swipe again…</p>}
          {result && result.eventId === eventId && (
            <>
              <Callout
                intent={result.now.granted ? 'success' : 'danger'}
                icon={result.now.granted ? 'tick-circle' : 'disable'}
                data-testid="why-reason"
                title={result.now.label}
              >
                {result.identityName ?? 'Unknown card'} (card {result.swipe.card}) at {result.swipe.doorName ?? `door ${result.swipe.doorId}`},{' '}
                {dateTime(result.swipe.at)}
                {result.stored.reason && result.stored.reason !== result.now.reason && (
                  <p style={{ marginTop: 8 }}>
                    When it happened the reason was <Tag minimal>{result.stored.reason}</Tag>; the configuration has changed since.
                  </p>
                )}
              </Callout>
              <ol className="gh-why-steps" data-testid="why-steps" style={{ paddingLeft: 0, listStyle: 'none', marginTop: 16 }}>
                {result.now.steps.map((s, i) => (
                  <li key={i} data-testid="why-step" style={{ display: 'flex', gap: 8, marginBottom: 8, alignItems: 'flex-start' }}>
                    <Icon icon={s.ok ? 'tick-circle' : 'cross-circle'} intent={s.ok ? 'success' : 'danger'} style={{ marginTop: 2 }} />
                    <span>
                      <strong>{CHECKS[s.check] ?? s.check}</strong>: {s.detail}
                    </span>
                  </li>
                ))}
              </ol>
            </>
          )}
        </div>
      </Drawer>
    </>
  );
}
