// Visited views as tabs (§2: at most 10), read from the tabs actor; closing sends events, the actor decides
// where to go (it emits tabs.navigate, heard in App.tsx). For assistive technology the bar is what it does: a
// navigation landmark of links to the open views, the current one marked aria-current="page", each with its own
// close button (a tablist may hold nothing but tabs, and these are pages of the console, not panels of one page).
import { Link } from 'react-router-dom';
import { Button, Icon } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { selectViews } from '../../machines/tabs.selectors';
import { routeTitle, tx, useT } from '../i18n';
import { matchRoute } from './guard';
import { useSystemActor } from '../hooks/useSystemActor';
import { LazyContextMenu, LazyPopover } from '../ui/LazyPopover';
import type { PopoverKit } from '../ui/popoverKit';

export function TabsBar({ currentPath }: { currentPath: string }) {
  const tabs = useSystemActor('tabs');
  const views = useSelector(tabs, selectViews);
  const t = useT();
  const menu =
    (path: string) =>
    ({ Menu, MenuItem }: PopoverKit) => (
      <Menu small>
        <MenuItem icon="cross" text={t('close')} onClick={() => tabs.send({ type: 'tab.close', path })} />
        <MenuItem icon="cross-circle" text={t('closeOthers')} onClick={() => tabs.send({ type: 'tab.closeOthers', path })} />
        <MenuItem icon="delete" text={t('closeAll')} onClick={() => tabs.send({ type: 'tab.closeAll' })} />
      </Menu>
    );
  return (
    <nav className="gh-tabs" aria-label={tx('Open views')} data-testid="tabs-bar" data-tour="tabs">
      <div className="gh-tabs__scroll">
        {views.map((v) => {
          const active = v.path === currentPath;
          // a tab is a visit of a route: its title is the route's, in the operator's language
          const title = routeTitle(matchRoute(v.path).route);
          return (
            <LazyContextMenu key={v.path} content={menu(v.path)} className={`gh-tab${active ? ' gh-tab--active' : ''}`} data-testid="tab" data-path={v.path}>
              <Link to={v.path} aria-current={active ? 'page' : undefined} className="gh-tab__link" title={title}>
                {active && <span className="gh-tab__dot" aria-hidden />}
                {title}
              </Link>
              <button
                type="button"
                className="gh-tab__close"
                aria-label={tx('Close {title}', { title })}
                onClick={() => tabs.send({ type: 'tab.close', path: v.path })}
              >
                <Icon icon="small-cross" size={14} />
              </button>
            </LazyContextMenu>
          );
        })}
      </div>
      <LazyPopover placement="bottom-end" content={menu(currentPath)}>
        <Button variant="minimal" size="small" icon="more" aria-label={tx('Tab actions')} />
      </LazyPopover>
    </nav>
  );
}
