// A resource list's toolbar: the filter box, the declaration's toolbar links the user may open, the screen's own
// buttons, bulk delete of the marked rows, export, refresh, and Add for whoever may add.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button, ButtonGroup, Icon, InputGroup, Spinner, type IconName } from '@blueprintjs/core';
import { hasPrivilege } from '../../contract';
import { tx, useT } from '../i18n';
import { ExportButtons, type ExportFormat } from '../ui/ExportButtons';
import { resourceWords, type Resource } from './consoleResource';

export interface ListToolbarProps<T extends { id: number }> {
  resource: Resource<T>;
  held: ReadonlySet<string>;
  /** the filter box's text, and what to do when it is typed or Enter is pressed */
  text: string;
  onText: (text: string) => void;
  onFilterNow: () => void;
  busy: boolean;
  /** the screen's own toolbar buttons */
  toolbar?: ReactNode;
  canAdd: boolean;
  canDelete: boolean;
  marked: number;
  onDelete: () => void;
  serverExport: boolean;
  exporting: boolean;
  exportAs: (format: ExportFormat) => void;
  onRefresh: () => void;
}

export function ListToolbar<T extends { id: number }>(p: ListToolbarProps<T>) {
  const t = useT();
  const { resource, held, text, busy, toolbar, canAdd, canDelete, serverExport, exporting, exportAs } = p;
  const words = resourceWords(resource);
  return (
    <div className="gh-list__toolbar">
      <InputGroup
        className="gh-list__filter"
        leftIcon="search"
        type="search"
        placeholder={resource.filterPlaceholder ? tx(resource.filterPlaceholder) : t('search')}
        aria-label={tx('Filter {what}', { what: words.many.toLowerCase() })}
        name="filter"
        value={text}
        onChange={(e) => p.onText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') p.onFilterNow();
        }}
        rightElement={busy ? <Spinner size={16} /> : undefined}
      />
      <div className="gh-list__spacer" />
      {(resource.declaration?.screens?.toolbarLinks ?? [])
        .filter((l) => hasPrivilege(held, [l.privilege]))
        .map((l) =>
          l.external ? (
            <a
              key={l.route}
              href={l.route}
              target="_blank"
              rel="noopener"
              className="bp6-button bp6-minimal"
              data-testid={`toolbar-link-${l.route.split('/').pop()}`}
            >
              {l.icon && <Icon icon={l.icon as IconName} />}
              <span className="bp6-button-text">{tx(l.label)}</span>
            </a>
          ) : (
            <Link key={l.route} to={l.route} className="bp6-button bp6-minimal" data-testid={`toolbar-link-${l.route.split('/').pop()}`}>
              {l.icon && <Icon icon={l.icon as IconName} />}
              <span className="bp6-button-text">{tx(l.label)}</span>
            </Link>
          ),
        )}
      {toolbar}
      <ButtonGroup className="gh-list__actions">
        {canDelete && (
          <Button icon="trash" intent="danger" variant="outlined" disabled={p.marked === 0} onClick={p.onDelete} data-testid="bulk-delete">
            {t('deleteSelected')}
            {p.marked ? ` (${p.marked})` : ''}
          </Button>
        )}
        {serverExport ? (
          <ExportButtons onExport={exportAs} loading={exporting} testId="export-csv" csvText={t('exportCsv')} />
        ) : (
          <Button icon="export" variant="outlined" loading={exporting} onClick={() => exportAs('csv')} data-testid="export-csv">
            {t('exportCsv')}
          </Button>
        )}
        <Button icon="refresh" variant="outlined" aria-label={t('refresh')} onClick={p.onRefresh} />
        {canAdd && (
          <Link to={resource.addPath ?? `${resource.path}/add`} className="bp6-button bp6-intent-primary" data-testid="add-button">
            <span className="bp6-icon bp6-icon-plus" aria-hidden />{' '}
            <span className="bp6-button-text">{words.addLabel ?? tx('Add {what}', { what: words.one.toLowerCase() })}</span>
          </Link>
        )}
      </ButtonGroup>
    </div>
  );
}
