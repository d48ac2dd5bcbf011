import type { ReactNode } from 'react';
import { H3, Icon, type IconName } from '@blueprintjs/core';

export function PageHeader({ title, icon, description, actions }: { title: string; icon?: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="gh-page-header">
      <div className="gh-page-header__text">
        <H3 className="gh-page-header__title">
          {icon && <Icon icon={icon as IconName} size={18} />}
          {title}
        </H3>
        {description && <div className="gh-page-header__desc bp6-text-muted">{description}</div>}
      </div>
      {actions && <div className="gh-page-header__actions">{actions}</div>}
    </div>
  );
}
