// Header: menu toggle, breadcrumb, working client (+ switcher for multi-tenant users), desktop companion,
// alarms, settings, user menu. The `data-tour` marks are the guided tour's targets (machines/tour.ts).
import { useNavigate } from 'react-router-dom';
import { Breadcrumb, Button, Spinner, type BreadcrumbProps } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { APP_VERSION, PRIV, type Client, type PageOf } from '../../contract';
import { selectClientId, selectHeldPrivileges, selectIsBusy, selectUser } from '../../machines/session.selectors';
import { routeTitle, sectionTitle, tx, useT } from '../i18n';
import { Avatar } from '../ui/Avatar';
import { LazyPopover } from '../ui/LazyPopover';
import { useReading } from '../hooks/useReading';
import { LOGIN, SECTIONS, type RouteDef } from './routeTable';
import { useSystemActor } from '../hooks/useSystemActor';
import { CompanionIndicator } from './CompanionIndicator';
import { tourFactsOf } from './tourFacts';
import { AlarmsButton } from './AlarmsButton';

interface Props {
  route: RouteDef;
  onToggleSidebar: () => void;
  sidebarOpen: boolean;
  onOpenSettings: () => void;
}

export function Header({ route, onToggleSidebar, sidebarOpen, onOpenSettings }: Props) {
  const session = useSystemActor('session');
  const user = useSelector(session, selectUser);
  const clientId = useSelector(session, selectClientId);
  const busy = useSelector(session, selectIsBusy);
  const held = useSelector(session, selectHeldPrivileges);
  const tour = useSystemActor('tour');
  const navigate = useNavigate();
  const t = useT();
  const section = SECTIONS.find((s) => s.id === route.section);
  const crumbs: BreadcrumbProps[] = [
    ...(section && section.id !== 'general' ? [{ text: sectionTitle(section), icon: section.icon as BreadcrumbProps['icon'] }] : []),
    { text: routeTitle(route), current: true },
  ];
  // the client list is only read by those who may read it: multi-tenant operators, or holders of 9.2.0
  const mayListClients = !!user && (user.multiTenancyEnabled || held.has(PRIV.clients.view));
  // read again from scratch for another user or client (nothing of the last one stays in the menu)
  const clients = useReading<PageOf<Client>>('clientsReading', { input: { may: mayListClients }, key: `${mayListClients}:${user?.id}:${clientId}` });
  const current = clients.output?.items.find((c) => c.id === clientId);
  const clientName = current?.name ?? (clientId === null ? tx('No client selected') : tx('Client #{id}', { id: clientId }));

  const signOut = () => {
    session.send({ type: 'session.signOut' });
    navigate(LOGIN, { replace: true });
  };

  return (
    <header className="gh-header" data-testid="header">
      <Button
        variant="minimal"
        icon={sidebarOpen ? 'menu-closed' : 'menu-open'}
        aria-label={sidebarOpen ? tx('Collapse menu') : tx('Expand menu')}
        onClick={onToggleSidebar}
        data-testid="sidebar-toggle"
        data-tour="sidebar" // the tour's first step rings the sidebar where it shows, else (a phone) the button that opens it
      />
      {/* two crumbs at most, nothing to fold away: a plain list (Blueprint's Breadcrumbs puts its overflow list's
          spacer <div> inside the <ol>, which a list may not hold) */}
      <nav aria-label={tx('Breadcrumb')} className="gh-breadcrumbs">
        <ol className="bp6-breadcrumbs">
          {crumbs.map((c, i) => (
            <li key={i} aria-current={c.current ? 'page' : undefined}>
              <Breadcrumb {...c} />
            </li>
          ))}
        </ol>
      </nav>
      <div className="gh-header__spacer" />
      {busy && <Spinner size={16} aria-label={tx('Working')} />}
      {user?.multiTenancyEnabled ? (
        <LazyPopover
          placement="bottom-end"
          className="gh-header__client"
          content={({ Menu, MenuDivider, MenuItem }) => (
            <Menu className="gh-client-menu" aria-label={tx('Switch client')}>
              <MenuDivider title={tx('Working client')} />
              {(clients.output?.items ?? []).map((c) => (
                <MenuItem
                  key={c.id}
                  text={c.name}
                  label={c.code}
                  icon={c.id === clientId ? 'tick' : 'blank'}
                  onClick={() => session.send({ type: 'session.selectClient', clientId: c.id })}
                />
              ))}
              {clients.busy && <MenuItem disabled text={t('loading')} />}
              <MenuDivider />
              <MenuItem icon="office" text={tx('Manage clients')} onClick={() => navigate('/manage/clients')} />
            </Menu>
          )}
        >
          <Button variant="minimal" icon="office" endIcon="caret-down" data-testid="client-switcher" aria-label={`${clientName}, ${tx('Switch client')}`}>
            <span data-testid="current-client" className="gh-current-client">
              {clientName}
            </span>
          </Button>
        </LazyPopover>
      ) : current ? (
        <span className="gh-current-client gh-current-client--static" data-testid="current-client">
          <span className="bp6-icon-office" /> {current.name}
        </span>
      ) : null}
      <CompanionIndicator />
      {held.has(PRIV.alarms.view) && <AlarmsButton />}
      <Button variant="minimal" icon="cog" aria-label={t('settings')} onClick={onOpenSettings} data-testid="settings-button" data-tour="settings" />
      <LazyPopover
        placement="bottom-end"
        content={({ Menu, MenuDivider, MenuItem }) => (
          <Menu aria-label={t('userMenu')}>
            <MenuDivider title={user ? `${user.name} (${user.username})` : ''} />
            <MenuItem icon="user" text={t('profile')} onClick={() => navigate('/profile')} />
            <MenuItem icon="cog" text={t('settings')} onClick={onOpenSettings} />
            <MenuItem
              icon="help"
              text={t('restartTour')}
              onClick={() => tour.send({ type: 'tour.restart', facts: tourFactsOf(session.getSnapshot()) })}
              data-testid="restart-tour"
            />
            <MenuItem icon="info-sign" text={`${t('version')} ${APP_VERSION}`} disabled data-testid="app-version" />
            <MenuDivider />
            <MenuItem icon="log-out" text={t('signOut')} intent="danger" onClick={signOut} />
          </Menu>
        )}
      >
        {/* named by what it shows and then what it is (WCAG 2.5.3 label in name): "Alex Admin, User menu" */}
        <Button variant="minimal" className="gh-user-button" data-testid="user-menu" data-tour="profile">
          <Avatar name={user?.name ?? '?'} color={user?.avatarColor ?? 'blue'} size={26} />
          <span className="gh-user-button__name">{user?.name}</span>
          <span className="gh-sr-only">{user ? `, ${t('userMenu')}` : t('userMenu')}</span>
        </Button>
      </LazyPopover>
    </header>
  );
}
