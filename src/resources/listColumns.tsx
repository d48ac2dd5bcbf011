// The columns of a resource list: a cell's text, the header of a column (its title, its sort shown, a menu to sort by
// it) and the header of the frozen first column (the name, with the mark of every row on the page when rows may be
// deleted together).
import { Checkbox, Menu, MenuItem } from '@blueprintjs/core';
import { ColumnHeaderCell } from '@blueprintjs/table';
import { tx } from '../i18n';

export const ROW_HEIGHT = 34;
export const HEADER_HEIGHT = 32;

export type SortDir = 'asc' | 'desc';
export interface ColumnSort {
  sortOf: (field: string) => SortDir | undefined;
  sortBy: (field: string, dir: SortDir | null) => void;
}

/** What a cell shows: the column's own text of the row, else the row's field as text ('' when it has none). */
export function cellText<T>(c: { field: string; value?: (row: T) => string }, row: T): string {
  if (c.value) return c.value(row);
  const v = (row as Record<string, unknown>)[c.field];
  return v === null || v === undefined ? '' : String(v);
}

/** A column's header renderer: its title, the sort it is in, and (when sortable) a menu to sort by it. */
export const columnHeader =
  ({ sortOf, sortBy }: ColumnSort, title: string, field: string, sortable: boolean) =>
  () => (
    <ColumnHeaderCell
      name={title}
      nameRenderer={(name) => (
        <span className="gh-colhead" data-testid={`col-${field}`}>
          {name}
          {sortOf(field) && (
            <span
              className={`bp6-icon bp6-icon-${sortOf(field) === 'asc' ? 'sort-asc' : 'sort-desc'} gh-colhead__sort`}
              role="img"
              aria-label={sortOf(field) === 'asc' ? tx('sorted ascending') : tx('sorted descending')}
            />
          )}
        </span>
      )}
      menuRenderer={
        sortable
          ? () => (
              <Menu>
                <MenuItem icon="sort-asc" text={tx('Sort ascending')} onClick={() => sortBy(field, 'asc')} />
                <MenuItem icon="sort-desc" text={tx('Sort descending')} onClick={() => sortBy(field, 'desc')} />
                {sortOf(field) && <MenuItem icon="cross" text={tx('Clear sort')} onClick={() => sortBy(field, null)} />}
              </Menu>
            )
          : undefined
      }
    />
  );

/** The first column's header: its rows' mark (all on this page, when rows may be deleted together), name and sort. */
export function primaryHeader(
  { sortOf, sortBy }: ColumnSort,
  title: string,
  field: string,
  marks: { allOnPage: boolean; someOnPage: boolean; toggleAll: () => void } | null,
) {
  return (
    <ColumnHeaderCell
      name={title}
      nameRenderer={(name) => (
        <span className="gh-colhead gh-colhead--primary">
          {/* rows are marked only to be deleted together: a list nobody here may delete from has no marks */}
          {marks && (
            <Checkbox
              className="gh-rowhead__check"
              checked={marks.allOnPage}
              indeterminate={!marks.allOnPage && marks.someOnPage}
              onChange={marks.toggleAll}
              aria-label={tx('Mark all rows on this page')}
            />
          )}
          {name}
          {sortOf(field) && <span className={`bp6-icon bp6-icon-${sortOf(field) === 'asc' ? 'sort-asc' : 'sort-desc'} gh-colhead__sort`} />}
        </span>
      )}
      menuRenderer={() => (
        <Menu>
          <MenuItem icon="sort-asc" text={tx('Sort ascending')} onClick={() => sortBy(field, 'asc')} />
          <MenuItem icon="sort-desc" text={tx('Sort descending')} onClick={() => sortBy(field, 'desc')} />
        </Menu>
      )}
    />
  );
}
