import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Card, Icon, NonIdealState, Tag, type IconName } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { selectClientId, selectHeldPrivileges, selectIsSignedIn } from '../../../machines/session.selectors';
import { canOpen, needsClientFirst } from '../../app/guard';
import { useRouteInfo } from '../../app/RouteContext';
import { CLIENTS, DASHBOARD, ROUTES, SECTIONS } from '../../app/routeTable';
import { useSystemActor } from '../../hooks/useSystemActor';
import { PageHeader } from '../../ui/PageHeader';
import { routeDescription, routeTitle, sectionTitle, t, tx, useLocale } from '../../i18n';
import './info.css';

export function ForbiddenScreen() {
  const navigate = useNavigate();
  const session = useSystemActor('session');
  const signedIn = useSelector(session, selectIsSignedIn);
  const clientId = useSelector(session, selectClientId);
  const held = useSelector(session, selectHeldPrivileges);
  useLocale();
  const chooseClient = needsClientFirst({ signedIn, held, clientId });
  // the page has no shell: whoever is signed in can still leave it as themselves or sign out from here
  return (
    <div className="gh-bare" data-testid="forbidden">
      <NonIdealState
        icon="lock"
        title={t('accessDenied')}
        description={
          chooseClient
            ? tx('This screen shows one client’s data and no client is selected. Choose a client, then open it again.')
            : tx('Your roles do not include the privilege this screen needs. Ask an administrator if you should have it.')
        }
        action={
          <div className="gh-bare__actions">
            <Button icon="arrow-left" text={tx('Go back')} onClick={() => navigate(-1)} />
            {chooseClient ? (
              <Link className="bp6-button bp6-intent-primary" to={CLIENTS} data-testid="forbidden-choose-client">
                {tx('Choose a client')}
              </Link>
            ) : (
              <Link className="bp6-button bp6-intent-primary" to={DASHBOARD}>
                {tx('Dashboard')}
              </Link>
            )}
            {signedIn && (
              <Button
                icon="log-out"
                text={t('signOut')}
                onClick={() => {
                  session.send({ type: 'session.signOut' });
                  navigate('/login', { replace: true });
                }}
                data-testid="forbidden-sign-out"
              />
            )}
          </div>
        }
      />
      <div className="gh-bare__code">403</div>
    </div>
  );
}

export function NotFoundScreen() {
  const { path } = useRouteInfo();
  useLocale();
  return (
    <div className="gh-bare" data-testid="not-found">
      <NonIdealState
        icon="search"
        title={t('notFound')}
        description={
          <>
            {tx('Nothing lives at')} <code>{path}</code>
            {tx('. Addresses are case sensitive.')}
          </>
        }
        action={
          <Link className="bp6-button bp6-intent-primary" to={DASHBOARD}>
            {tx('Go to the dashboard')}
          </Link>
        }
      />
      <div className="gh-bare__code">404</div>
    </div>
  );
}

/** Every route of the table exists, guarded and titled; screens not built yet say so — no fake data. */
export function LaterReleaseScreen() {
  const { route, params } = useRouteInfo();
  const section = SECTIONS.find((s) => s.id === route.section);
  const shown = Object.entries(params).filter(([, v]) => v !== undefined);
  useLocale();
  return (
    <div className="gh-page" data-testid="later-release">
      <PageHeader title={routeTitle(route)} icon={route.icon} description={section && section.id !== 'general' ? sectionTitle(section) : undefined} />
      <Card className="gh-later">
        <Icon icon="build" size={32} className="gh-later__icon" />
        <div>
          <h4 className="bp6-heading">{t('laterRelease')}</h4>
          <p>{routeDescription(route) ?? tx('Its data and actions are not part of this release yet.')}</p>
          {shown.length > 0 && (
            <p className="bp6-text-muted">
              {tx('Opened for')}{' '}
              {shown.map(([k, v]) => (
                <Tag key={k} minimal className="gh-later__tag">
                  {k}: {v}
                </Tag>
              ))}
            </p>
          )}
          {route.privileges && route.privileges.length > 0 && (
            <p className="bp6-text-muted">
              {tx('Privileges:')}{' '}
              {route.privileges.map((p) => (
                <Tag key={p} minimal className="gh-later__tag">
                  {p}
                </Tag>
              ))}
            </p>
          )}
        </div>
      </Card>
    </div>
  );
}

/** /attendance: the children sit under it and are hidden from the sidebar, so they are listed here. */
export function AttendanceScreen() {
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
  const signedIn = useSelector(session, selectIsSignedIn);
  const clientId = useSelector(session, selectClientId);
  useLocale();
  const children = useMemo(
    () =>
      ROUTES.filter(
        (r) => r.section === 'attendance' && r.path !== '/attendance' && !/\/(add|edit|view)(\/|$)/.test(r.path) && canOpen(r, { signedIn, held, clientId }),
      ),
    [held, signedIn, clientId],
  );
  return (
    <div className="gh-page" data-testid="attendance-hub">
      <PageHeader title={tx('Time and attendance')} icon="time" description={tx('Teams, work schedules, leave and timesheets.')} />
      <div className="gh-hub">
        {children.map((r) => (
          <Link key={r.path} to={r.path} className="gh-hub__item">
            <Card interactive compact>
              <Icon icon={(r.icon ?? 'time') as IconName} size={18} />
              <div>
                <strong>{routeTitle(r)}</strong>
                <p className="bp6-text-muted">{routeDescription(r)}</p>
              </div>
            </Card>
          </Link>
        ))}
      </div>
    </div>
  );
}
