// The alarm sound as it really is (issue 10): on, muted, blocked by the browser's autoplay policy (one click
// enables it), or unavailable. Never shows "on" unless the browser's audio context is running. Its accessible name
// starts with the words it shows (in the header only its icon shows until the browser blocks the sound) and then
// says what a click does (WCAG 2.5.3 label in name).
import { useSyncExternalStore } from 'react';
import { Button } from '@blueprintjs/core';
import { alarmSound, type SoundState } from '../hooks/console';
import { tx, useLocale } from '../i18n';

const LOOK: Record<SoundState, () => { icon: 'volume-up' | 'volume-off' | 'warning-sign'; text: string; title: string }> = {
  on: () => ({ icon: 'volume-up', text: tx('Sound on'), title: tx('Alarm sound is on: click to mute') }),
  muted: () => ({ icon: 'volume-off', text: tx('Sound off'), title: tx('Alarm sound is muted: click to turn it on') }),
  blocked: () => ({ icon: 'volume-off', text: tx('Enable sound'), title: tx('The browser blocks the alarm sound until you click: click to enable it') }),
  unavailable: () => ({ icon: 'volume-off', text: tx('No sound'), title: tx('This browser has no audio output') }),
};

export function SoundControl({ compact = false, testId = 'alarm-sound' }: { compact?: boolean; testId?: string }) {
  const state = useSyncExternalStore(alarmSound.subscribe, alarmSound.state);
  useLocale();
  const look = LOOK[state]();

  const onClick = () => {
    if (state === 'on') alarmSound.setMuted(true);
    else void alarmSound.enable();
  };
  return (
    <Button
      variant={state === 'blocked' ? 'solid' : 'minimal'}
      intent={state === 'blocked' ? 'warning' : 'none'}
      size={compact ? 'small' : undefined}
      icon={look.icon}
      onClick={onClick}
      disabled={state === 'unavailable'}
      title={look.title}
      aria-label={`${look.text}: ${look.title}`}
      data-testid={testId}
      data-sound={state}
      className="gh-sound-control"
    >
      <span className="gh-sound-control__text">{look.text}</span>
    </Button>
  );
}
