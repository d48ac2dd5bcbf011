import { tx } from '../../i18n';
import type { ReactNode } from 'react';
import { Icon } from '@blueprintjs/core';
import { APP_VERSION } from '../../../contract';

/** The frame of the no-layout screens: brand panel and a card. `variant` gives /login-remake its look. */
export function AuthFrame({ children, variant = 'split' }: { children: ReactNode; variant?: 'split' | 'centered' }) {
  return (
    <div className={`gh-auth gh-auth--${variant}`}>
      {variant === 'split' && (
        <aside className="gh-auth__brand bp6-dark">
          <div className="gh-auth__logo">
            <span className="gh-logo-mark">
              <Icon icon="office" size={20} />
            </span>{' '}
            {tx('Gatehouse')}
          </div>
          <div className="gh-auth__pitch">
            <h1>{tx('Access, security and attendance in one console.')}</h1>
            <ul>
              <li>
                <Icon icon="key-enter" /> {tx('Doors, controllers and readers, live')}
              </li>
              <li>
                <Icon icon="people" /> {tx('Identities, credentials and access groups')}
              </li>
              <li>
                <Icon icon="time" /> {tx('Time and attendance, visitors and reports')}
              </li>
            </ul>
          </div>
          <div className="gh-auth__foot">Version {APP_VERSION}</div>
        </aside>
      )}
      <main className="gh-auth__main">
        {variant === 'centered' && (
          <div className="gh-auth__logo gh-auth__logo--dark">
            <span className="gh-logo-mark">
              <Icon icon="office" size={20} />
            </span>{' '}
            {tx('Gatehouse')}
          </div>
        )}
        <div className="gh-auth__card">{children}</div>
        {variant === 'centered' && <div className="gh-auth__foot gh-auth__foot--dark">Version {APP_VERSION}</div>}
      </main>
    </div>
  );
}
