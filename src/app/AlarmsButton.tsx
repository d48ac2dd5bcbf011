// The header's alarm gadgets: the alarm sound as it really is (but on the alarms screen, which shows its own), and the
// alarms button with the open count (what an operator sees at sign-in instead of a toast per alarm already open, issue 10).
import { useLocation, useNavigate } from 'react-router-dom';
import { Button } from '@blueprintjs/core';
import { ShortTag } from '../ui/ShortTag';
import { useSelector } from '@xstate/react';
import { selectOpenByPriority } from '../../machines/alarms.selectors';
import { SoundControl } from './SoundControl';
import { useSystemActor } from '../hooks/useSystemActor';
import { tx, useT } from '../i18n';

const ALARMS_PATH = '/monitor/alarms';

export function AlarmsButton() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const t = useT();
  const byPriority = useSelector(useSystemActor('alarms'), selectOpenByPriority);
  const open = byPriority.reduce((n, p) => n + p.count, 0);
  const p1 = byPriority.find((p) => p.priority <= 1)?.count ?? 0;
  const label = open
    ? p1
      ? tx('{alarms}: {open} open, {p1} P1', { alarms: t('alarms'), open, p1 })
      : tx('{alarms}: {open} open', { alarms: t('alarms'), open })
    : tx('{alarms}: none open', { alarms: t('alarms') });

  return (
    <>
      {/* the alarms screen has its own, labelled control: one is enough (two orange "Enable sound" side by side) */}
      {pathname !== ALARMS_PATH && <SoundControl compact />}
      <Button
        variant="minimal"
        icon="warning-sign"
        intent={p1 ? 'danger' : 'none'}
        aria-label={label}
        title={label}
        onClick={() => navigate(ALARMS_PATH)}
        data-testid="alarms-button"
        data-tour="alarms"
      >
        {open > 0 && (
          <ShortTag round intent={p1 ? 'danger' : 'warning'} data-testid="alarms-open-count">
            {open > 99 ? '99+' : open}
          </ShortTag>
        )}
      </Button>
    </>
  );
}
