// Header badge of the desktop companion (§1, §4): offline / found / connected, a tooltip that says what it
// means and what to do, click to look for it now. What goes wrong is heard from the actor's emits as toasts.
import { useEffect } from 'react';
import { Button, Classes, type Intent } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { TOAST_MS } from '../../contract';
import {
  selectCompanionError,
  selectCompanionIsWaiting,
  selectCompanionPort,
  selectCompanionStatus,
  selectCompanionVersion,
  type CompanionStatus,
} from '../../machines/companion.selectors';
import { notify } from '../hooks/console';
import { say, tx, useLocale } from '../i18n';
import { useSystemActor } from '../hooks/useSystemActor';
import { LazyPopover } from '../ui/LazyPopover';
import './companion.css';

const INTENT: Record<CompanionStatus, Intent> = { offline: 'none', found: 'warning', connected: 'success' };

export function CompanionIndicator() {
  const companion = useSystemActor('companion');
  const status = useSelector(companion, selectCompanionStatus);
  const waiting = useSelector(companion, selectCompanionIsWaiting);
  const port = useSelector(companion, selectCompanionPort);
  const version = useSelector(companion, selectCompanionVersion);
  const error = useSelector(companion, selectCompanionError);
  useLocale();

  useEffect(() => {
    const subs = [
      companion.on('companion.failed', (e) =>
        notify({ intent: 'warning', title: tx('Desktop companion'), message: e.message, sentence: e.sentence, timeoutMs: TOAST_MS }),
      ),
      companion.on('companion.disconnected', (e) =>
        notify({ intent: 'warning', title: tx('Desktop companion disconnected'), message: e.reason, sentence: e.sentence, timeoutMs: TOAST_MS }),
      ),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [companion]);

  const explanation =
    status === 'connected'
      ? tx('Connected to the desktop companion {version} on port {port}. Photo capture, badge printing and alarm notifications are available.', {
          version: version ?? '',
          port: String(port),
        })
      : status === 'found'
        ? tx('Found the desktop companion on port {port}; connecting…', { port: String(port) })
        : waiting
          ? tx(
              'The desktop companion (photos, badge printing, desktop alarms) is not running on this computer, or it stopped. The console itself is online. Looking again shortly; click to look now.',
            )
          : tx('Looking for the desktop companion on this computer…');
  const label = status === 'connected' ? tx('Companion connected') : status === 'found' ? tx('Companion found') : tx('Companion offline');

  return (
    <LazyPopover
      interactionKind="hover-target"
      // a tip, not a dialog: the keyboard's focus stays on the button (WCAG 2.4.7). With Blueprint's default the open
      // tip took the next Tab itself, on an element that shows no focus, before the alarms button
      autoFocus={false}
      enforceFocus={false}
      placement="bottom"
      popoverClassName="gh-companion-tip"
      content={() => (
        <div className="gh-companion-tip__body" data-testid="companion-tooltip">
          <strong>{label}</strong>
          <div>{explanation}</div>
          {status !== 'connected' && error && <div className={Classes.TEXT_MUTED}>{say(error)}</div>}
        </div>
      )}
    >
      <Button
        variant="minimal"
        icon="desktop"
        intent={INTENT[status]}
        className={`gh-companion gh-companion--${status}`}
        aria-label={label}
        data-testid="companion-indicator"
        data-status={status}
        onClick={() => companion.send({ type: 'companion.retry' })}
      >
        {/* issue 10: "Offline" alone read as the console being offline */}
        <span className="gh-companion__label">{label}</span>
      </Button>
    </LazyPopover>
  );
}
