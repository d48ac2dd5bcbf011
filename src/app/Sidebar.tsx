// The menu, built from the route table and filtered by what the operator may open (§2, §6).
import { useMemo, useState } from 'react';
import { NavLink } from 'react-router-dom';
import { Icon, type IconName } from '@blueprintjs/core';
import { APP_VERSION } from '../../contract';
import { routeTitle, sectionTitle, tx, useLocale } from '../i18n';
import { canOpen, type Visitor } from './guard';
import { ROUTES, SECTIONS, type RouteDef, type SectionId } from './routeTable';

export function sidebarGroups(v: Visitor): { id: SectionId; title: string; icon: string; items: RouteDef[] }[] {
  return SECTIONS.map((s) => ({ ...s, items: ROUTES.filter((r) => r.section === s.id && !r.hidden && r.layout && canOpen(r, v)) })).filter(
    (g) => g.items.length > 0,
  );
}

interface Props {
  visitor: Visitor;
  collapsed: boolean;
  showLogo: boolean;
  currentSection: SectionId;
  onNavigate?: () => void;
}

export function Sidebar({ visitor, collapsed, showLogo, currentSection, onNavigate }: Props) {
  const groups = useMemo(() => sidebarGroups(visitor), [visitor]);
  useLocale(); // titles follow the language
  // purely visual: which groups are folded
  const [folded, setFolded] = useState<Record<string, boolean>>({}); // visual: the sections folded
  return (
    <nav className={`gh-sidebar bp6-dark${collapsed ? ' gh-sidebar--collapsed' : ''}`} aria-label={tx('Main menu')} data-testid="sidebar" data-tour="sidebar">
      {showLogo && (
        <div className="gh-sidebar__logo">
          <span className="gh-logo-mark" aria-hidden>
            <Icon icon="office" size={16} />
          </span>
          {!collapsed && (
            <span className="gh-logo-text">
              Gatehouse<small>v{APP_VERSION}</small>
            </span>
          )}
        </div>
      )}
      <div className="gh-sidebar__scroll">
        {groups.map((g) => {
          const open = collapsed || !(folded[g.id] ?? false);
          return (
            <div className={`gh-nav-group${g.id === currentSection ? ' gh-nav-group--current' : ''}`} key={g.id} data-section={g.id}>
              {!collapsed && (
                <button type="button" className="gh-nav-group__title" aria-expanded={open} onClick={() => setFolded((f) => ({ ...f, [g.id]: open }))}>
                  <span>{sectionTitle(g)}</span>
                  <Icon icon={open ? 'chevron-down' : 'chevron-right'} size={12} />
                </button>
              )}
              {/* folded by the style sheet (issue 48): Blueprint's Collapse measures its contents as it mounts, a layout
                  of the page forced inside the console's first commit */}
              <div className={`gh-nav-group__body${open ? ' gh-nav-group__body--open' : ''}`}>
                <ul className="gh-nav-list">
                  {g.items.map((r) => (
                    <li key={r.path}>
                      <SideLink route={r} collapsed={collapsed} onNavigate={onNavigate} />
                    </li>
                  ))}
                </ul>
              </div>
            </div>
          );
        })}
      </div>
    </nav>
  );
}

function SideLink({ route, collapsed, onNavigate }: { route: RouteDef; collapsed: boolean; onNavigate?: () => void }) {
  const title = routeTitle(route);
  const link = (
    <NavLink
      to={route.path}
      end={route.path === '/visitor'}
      caseSensitive
      className={({ isActive }) => `gh-nav-link${isActive ? ' gh-nav-link--active' : ''}`}
      onClick={onNavigate}
      aria-label={collapsed ? title : undefined}
      title={collapsed ? title : undefined}
    >
      <Icon icon={(route.icon ?? 'dot') as IconName} size={14} />
      {!collapsed && <span className="gh-nav-link__text">{title}</span>}
    </NavLink>
  );
  return link;
}
