// The shell shows every notice (src/system/notices.ts) as a Blueprint toast, and the alarms machine's notice
// board (issue 10) as one capped stack in the bottom-right corner: what the machine emits, nothing more.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Icon, type Toaster } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { selectAlarmNotices } from '../../machines/alarms.selectors';
import { notices$ } from '../hooks/console';
import { useIsMobile } from '../hooks/useMediaQuery';
import { say, saySentence, tx, useLocale } from '../i18n';
import { alarmNoticeWords } from '../i18n/alarmNotices';
import { useSystemActor } from '../hooks/useSystemActor';

let toaster: Promise<Toaster> | null = null;
// issue 48: the toaster's code loads with the first notice (./toaster.ts)
const getToaster = () =>
  (toaster ??= import('./toaster').then(
    (m) => m.createToaster(),
    (e: unknown) => {
      toaster = null; // a failed fetch is tried again by the next notice
      throw e;
    },
  ));

/** The toaster's code, fetched, not yet made (the shell asks for it once the opening screen is drawn). */
export const loadToaster = () => import('./toaster');

export function Toasts() {
  useEffect(() => {
    const sub = notices$.subscribe(async (n) => {
      (await getToaster()).show({
        intent: n.intent,
        timeout: n.timeoutMs,
        icon: n.intent === 'danger' ? 'error' : n.intent === 'warning' ? 'warning-sign' : n.intent === 'success' ? 'tick-circle' : 'info-sign',
        message: (
          <div className="gh-toast" data-testid="toast">
            <strong>{tx(n.title)}</strong>
            {n.message ? <div>{n.sentence ? saySentence(n.sentence) : say(n.message)}</div> : null}
          </div>
        ),
      });
    });
    return () => sub.unsubscribe();
  }, []);
  // Issue 10: what one user or client was told goes with them: a sign-out or a client switch clears the toasts
  const session = useSystemActor('session');
  useEffect(() => {
    const clear = () => {
      if (toaster) void toaster.then((t) => t.clear()).catch(() => undefined);
    };
    const subs = [session.on('session.ended', clear), session.on('session.clientChanged', clear)];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [session]);
  return (
    <>
      <AlarmAnnouncer />
      <AlarmBoard />
    </>
  );
}

/**
 * Screen readers hear each batch of new alarms once (WCAG 4.1.3 status messages): politely, or at once when it holds
 * a P1. Both regions are in the page, empty, before anything is said in them (a live region that appears together
 * with its text is often not read); the board below is not live itself, or every alarm would be read twice.
 */
function AlarmAnnouncer() {
  const alarms = useSystemActor('alarms');
  const session = useSystemActor('session');
  const [said, setSaid] = useState({ polite: '', assertive: '' }); // visual: the live regions' text for screen readers
  useEffect(() => {
    const subs = [
      alarms.on('alarm.noticed', ({ notices, priority }) => {
        const text = notices
          .map((n) => alarmNoticeWords(n))
          .map((n) => (n.message ? `${n.title}: ${n.message}` : n.title))
          .join('. ');
        setSaid(priority <= 1 ? { polite: '', assertive: text } : { polite: text, assertive: '' });
      }),
      // what one user or client was told goes with them
      session.on('session.ended', () => setSaid({ polite: '', assertive: '' })),
      session.on('session.clientChanged', () => setSaid({ polite: '', assertive: '' })),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [alarms, session]);
  return (
    <>
      <div className="gh-sr-only" role="status" aria-live="polite" aria-atomic="true" data-testid="alarm-announcer-polite">
        {said.polite}
      </div>
      <div className="gh-sr-only" role="alert" aria-live="assertive" aria-atomic="true" data-testid="alarm-announcer-assertive">
        {said.assertive}
      </div>
    </>
  );
}

const ALARMS_PATH = '/monitor/alarms';

/** New alarms, most urgent first. On a phone only the most urgent is shown, with how many more wait. */
function AlarmBoard() {
  const alarms = useSystemActor('alarms');
  const notices = useSelector(alarms, selectAlarmNotices);
  const mobile = useIsMobile();
  const navigate = useNavigate();
  useLocale();
  // the main area keeps room below its content while the board is up, so no row or button stays under it
  useEffect(() => {
    document.documentElement.classList.toggle('gh-has-alarm-board', notices.length > 0);
  }, [notices.length]);
  if (!notices.length) return null;
  const shown = mobile ? notices.slice(0, 1) : notices;
  const open = () => {
    alarms.send({ type: 'notices.seen' });
    navigate(ALARMS_PATH);
  };
  return (
    <section className="gh-alarm-board" aria-label={tx('New alarms')} data-testid="alarm-board">
      {shown
        .map((n) => ({ ...n, words: alarmNoticeWords(n) }))
        .map((n) => (
          <div
            key={n.id}
            className={`gh-alarm-notice gh-alarm-notice--p${Math.min(n.priority, 4)}${n.sticky ? ' gh-alarm-notice--sticky' : ''}`}
            data-testid="alarm-notice"
            data-kind={n.kind}
            data-sticky={n.sticky ? 'true' : 'false'}
            data-priority={n.priority}
          >
            <Icon icon={n.kind === 'summary' ? 'layers' : 'warning-sign'} className="gh-alarm-notice__icon" />
            <div className="gh-alarm-notice__body">
              <strong data-testid="alarm-notice-title">{n.words.title}</strong>
              {n.words.message && <div className="gh-alarm-notice__message">{n.words.message}</div>}
              {mobile && notices.length > 1 && (
                <div className="gh-alarm-notice__more" data-testid="alarm-notice-more">
                  {tx('and {n} more', { n: notices.length - 1 })}
                </div>
              )}
            </div>
            <div className="gh-alarm-notice__actions">
              <Button size="small" variant="outlined" onClick={open} data-testid="alarm-notice-open">
                {tx('View')}
              </Button>
              <Button
                size="small"
                variant="minimal"
                icon="cross"
                aria-label={tx('Dismiss')}
                onClick={() => alarms.send({ type: 'notice.dismiss', id: n.id })}
                data-testid="alarm-notice-dismiss"
              />
            </div>
          </div>
        ))}
    </section>
  );
}
