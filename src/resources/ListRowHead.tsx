// A list row's head, the frozen first cell: the record's name (a link to its own page or its form when the user may
// open it), the row's mark (when rows may be deleted together), its declared links and named actions, and the
// screen's own row buttons. Blueprint's grid has no table roles of its own: the head is a one-row table of cells.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button, Checkbox } from '@blueprintjs/core';
import { Cell } from '@blueprintjs/table';
import { tx } from '../i18n';
import type { Resource } from './consoleResource';

export type RowAction<T extends { id: number }> = NonNullable<Resource<T>['rowActions']>[number];

export interface RowHeadProps<T extends { id: number }> {
  resource: Resource<T>;
  /** the row's own page when the user may open it (see detailOf), else null */
  detailOf: (row: T) => string | null;
  /** the row's declared links the user may open */
  linksOf: (row: T) => { label: string; to: string }[];
  declaredActions: RowAction<T>[];
  canOpen: boolean;
  canDelete: boolean;
  selected: Set<number>;
  toggle: (id: number) => void;
  /** the row action running (`action:id`), or null */
  acting: string | null;
  runAction: (a: RowAction<T>, row: T, name: string) => void;
  rowTag?: (row: T) => ReactNode;
  rowActions?: (row: T) => ReactNode;
}

/** The first column's cell renderer of a resource list (a cell per row index of `items`). */
export function primaryCellRenderer<T extends { id: number }>(items: T[], p: RowHeadProps<T>) {
  const { resource, detailOf, linksOf, declaredActions, canOpen, canDelete, selected, toggle, acting, runAction, rowTag, rowActions } = p;
  return (i: number) => {
    const row = items[i];
    if (!row) return <Cell />;
    const name = resource.primary.value(row);
    return (
      <Cell className="gh-primary-cell">
        {/* the record's row (Blueprint's grid has no table roles of its own, and a row needs a table around it and
              nothing but cells in it): the name first (it opens the record), its mark shown before it (order: -1),
              then its links and actions */}
        <div role="table" aria-label={name} className="gh-rowhead-table">
          <div role="row" aria-label={name} className="gh-rowhead" data-testid="row" data-id={row.id}>
            <span role="cell" className="gh-rowhead__cell">
              {detailOf(row) || canOpen ? (
                <Link className="gh-rowhead__name" to={detailOf(row) ?? (resource.editPath ? resource.editPath(row.id) : `${resource.path}/edit/${row.id}`)}>
                  {name}
                </Link>
              ) : (
                <span className="gh-rowhead__name">{name}</span>
              )}
              {rowTag?.(row)}
            </span>
            {canDelete && (
              <span role="cell" className="gh-rowhead__mark">
                <Checkbox
                  className="gh-rowhead__check"
                  checked={selected.has(row.id)}
                  onChange={() => toggle(row.id)}
                  aria-label={tx('Mark {name}', { name })}
                />
              </span>
            )}
            <span role="cell" className="gh-rowhead__actions">
              {linksOf(row).map((l) => (
                <Link key={l.label} to={l.to} className="bp6-button bp6-small bp6-minimal" data-testid="row-link" aria-label={`${tx(l.label)}: ${name}`}>
                  {tx(l.label)}
                </Link>
              ))}
              {declaredActions.map((a) => (
                <Button
                  key={a.action}
                  size="small"
                  variant="minimal"
                  icon={a.icon as never}
                  loading={acting === `${a.action}:${row.id}`}
                  disabled={acting !== null}
                  onClick={() => runAction(a, row, name)}
                  data-testid="row-action"
                  aria-label={`${tx(a.label)}: ${name}`}
                >
                  {tx(a.label)}
                </Button>
              ))}
              {rowActions?.(row)}
            </span>
          </div>
        </div>
      </Cell>
    );
  };
}
