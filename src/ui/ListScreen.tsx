// A screen that is one catalogue list under a page header (identities, reports, error log, every generated list).
// Title, icon and description default to the route's (src/app/routeTable.ts) in the console's language, so a
// screen never shows an English title of its own beside a translated sidebar.
import type { ComponentProps, ReactNode } from 'react';
import { useRouteInfo } from '../app/RouteContext';
import { routeDescription, routeTitle, useLocale } from '../i18n';
import { ResourceList } from '../resources/ResourceList';
import { PageHeader } from './PageHeader';

export function ListScreen<T extends { id: number }>({
  testId,
  title,
  icon,
  description,
  before,
  ...list
}: {
  testId: string;
  title?: string;
  icon?: ComponentProps<typeof PageHeader>['icon'];
  description?: ReactNode;
  /** shown between the header and the list (a screen's own panel: the threat level in force) */
  before?: ReactNode;
} & ComponentProps<typeof ResourceList<T>>) {
  const { route } = useRouteInfo();
  useLocale();
  return (
    <div className="gh-page" data-testid={testId}>
      <PageHeader title={title ?? routeTitle(route)} icon={icon ?? route.icon} description={description ?? routeDescription(route)} />
      {before}
      <ResourceList<T> {...list} />
    </div>
  );
}
