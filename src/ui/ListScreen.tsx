// A screen that is one catalogue list under a page header (identities, reports, error log).
import type { ComponentProps, ReactNode } from 'react';
import { ResourceList } from '../resources/ResourceList';
import { PageHeader } from './PageHeader';

export function ListScreen<T extends { id: number }>({ testId, title, icon, description, ...list }: {
  testId: string; title: string; icon: ComponentProps<typeof PageHeader>['icon']; description: ReactNode;
} & ComponentProps<typeof ResourceList<T>>) {
  return (
    <div className="gh-page" data-testid={testId}>
      <PageHeader title={title} icon={icon} description={description} />
      <ResourceList<T> {...list} />
    </div>
  );
}
