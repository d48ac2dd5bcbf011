// The columns of a resource list: a cell's text, the header of a column (its title, its sort shown, a menu to sort by
// it) and the header of the frozen first column (the name, with the mark of every row on the page when rows may be
// deleted together).
import { Checkbox, Menu, MenuItem } from '@blueprintjs/core';
import { ColumnHeaderCell } from '@blueprintjs/table';
import { tx } from '../i18n';

export const ROW_HEIGHT = 34;
export const HEADER_HEIGHT = 32;
/** A wrapped cell's line and its padding above and below (src/styles/app.css .gh-cell--wrap). */
export const WRAP_LINE_HEIGHT = 18;
const WRAP_PAD = 16;
/** A wrapped column's narrowest width on a phone, where it takes what the frozen first column leaves of the screen. */
const WRAP_MIN_WIDTH = 160;

let measurer: CanvasRenderingContext2D | null | undefined;
/** The width of `text` in a list cell's font (13 px), measured where a canvas is, else estimated (a CJK glyph ~13 px). */
function textWidth(text: string): number {
  if (measurer === undefined) {
    measurer = typeof document === 'undefined' ? null : (document.createElement('canvas').getContext?.('2d') ?? null);
    if (measurer) measurer.font = `13px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  }
  if (measurer) return measurer.measureText(text).width;
  let w = 0;
  for (const ch of text) w += /[\u2e80-\uffff]/.test(ch) ? 13 : 7;
  return w;
}

/**
 * The height a wrapped cell of `width` px needs for `text`: its words laid out line by line as the browser wraps them
 * (at spaces, and between CJK glyphs), a line more when a word is wider than the cell.
 */
export function wrappedHeight(text: string, width: number): number {
  if (!text) return ROW_HEIGHT;
  const room = Math.max(20, width - 22); // the cell's padding and border
  const words = text.match(/[\u2e80-\uffff]|[^\s\u2e80-\uffff]+\s*|\s+/g) ?? [];
  let lines = 1;
  let used = 0;
  for (const w of words) {
    const ww = textWidth(w.trimEnd());
    if (used > 0 && used + ww > room) {
      lines++;
      used = 0;
    }
    used += textWidth(w);
    while (used > room) {
      lines++;
      used -= room;
    }
  }
  return Math.max(ROW_HEIGHT, lines * WRAP_LINE_HEIGHT + WRAP_PAD);
}

/** A wrapped column's width: as declared, but on a phone no wider than the screen beside the frozen first column. */
export const wrappedWidth = (declared: number, primary: number, mobile: boolean, screen: number) =>
  mobile ? Math.min(declared, Math.max(WRAP_MIN_WIDTH, screen - primary - 40)) : declared;

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
