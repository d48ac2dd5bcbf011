// The list scopes a declaration names (issue 50: Leave's "Waiting for me" and "My leave"), as tabs over its generated
// list: the ones the user may use, the first of them chosen unless the URL says another (`?scope=`, so a link or a
// reload keeps it; `all` for the whole list). The server applies the scope (server/crud/scopes.ts); a user holding only
// the own code sees the one tab of their own rows (the server holds them to it anyway).
import { useContext } from 'react';
import { Classes, Tab, Tabs } from '@blueprintjs/core';
import { useLocation, useSearchParams } from 'react-router-dom';
import { hasPrivilege, type ListScope, type ResourceDeclaration } from '../../contract';
import { RouteContext } from '../app/RouteContext';
import { tCat, useT } from '../i18n';

export const ALL_SCOPE = 'all';

/** The tabs `held` may use, in the declaration's order, the whole list last (none when that is all). */
export function scopeTabs(d: ResourceDeclaration<any> | undefined, held: ReadonlySet<string>): { name: string; label: string }[] {
  if (!d?.scopes?.length) return [];
  const tab = (s: ListScope) => ({ name: s.name, label: tCat(`resource.${d.name}.scope.${s.name}`, s.label) });
  // a member of staff holding only the own code: the one tab of their own rows, saying what the list is
  if (!hasPrivilege(held, [d.privileges.view, ...(d.privileges.list ?? [])])) {
    const mine = d.scopes.find((s) => s.kind === 'mine');
    return mine && d.privileges.own && held.has(d.privileges.own) ? [tab(mine)] : [];
  }
  const usable = d.scopes.filter((s) =>
    hasPrivilege(held, [s.kind === 'approvable' ? (s.privilege ?? d.privileges.view) : (d.privileges.own ?? d.privileges.view)]),
  );
  const tabs = [...usable.map(tab), { name: ALL_SCOPE, label: '' }];
  return tabs.length > 1 ? tabs : [];
}

/** The scope chosen: the URL's while this list's route is the one shown, else the first tab; undefined: no tabs. */
export function useListScope(d: ResourceDeclaration<any> | undefined, held: ReadonlySet<string>) {
  const [params, setParams] = useSearchParams();
  const info = useContext(RouteContext);
  const location = useLocation();
  const here = !info || location.pathname === info.path;
  const tabs = scopeTabs(d, held);
  const asked = here ? params.get('scope') : null;
  const chosen = tabs.length ? (tabs.find((t) => t.name === asked)?.name ?? tabs[0].name) : undefined;
  const choose = (name: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set('scope', name);
        return next;
      },
      { replace: true },
    );
  return { tabs, chosen, here, choose };
}

/** The scope as the list actor's filter: none for the whole list. */
export const scopeFilter = (chosen: string | undefined): Record<string, string> => (chosen && chosen !== ALL_SCOPE ? { scope: chosen } : {});

/** The list below the tabs as the chosen tab's panel, with the ids Blueprint's tab names in aria-controls (a tab
 *  pointing at no element is an ARIA error, found by the matrix walk); nothing without tabs. */
export const scopePanelProps = (name: string, chosen: string | undefined) =>
  chosen ? { role: 'tabpanel', id: `${Classes.TAB_PANEL}_${name}-scopes_${chosen}`, 'aria-labelledby': `${Classes.TAB}-title_${name}-scopes_${chosen}` } : {};

export function ListScopeTabs({
  name,
  tabs,
  chosen,
  onChoose,
}: {
  name: string;
  tabs: { name: string; label: string }[];
  chosen?: string;
  onChoose: (n: string) => void;
}) {
  const t = useT();
  if (!tabs.length) return null;
  return (
    <Tabs id={`${name}-scopes`} className="gh-list__scopes" selectedTabId={chosen} onChange={(id) => onChoose(String(id))} animate={false}>
      {tabs.map((x) => (
        <Tab key={x.name} id={x.name} title={x.name === ALL_SCOPE ? t('allRows') : x.label} />
      ))}
    </Tabs>
  );
}
