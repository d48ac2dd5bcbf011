// The generic list of a resource: server paging, sort (column header menus), filter, column resize, row
// selection, bulk delete with confirm, CSV export of the filtered rows. State lives in the resourceList actor.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Callout, NonIdealState } from '@blueprintjs/core';
import { Cell, Column, SelectionModes, Table2 } from '@blueprintjs/table';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { TABLE_MAX_HEIGHT_VH, actionCodes, hasPrivilege, recordCodes, type SortSpec } from '../../contract';
import type { commandMachine } from '../../machines/command';
import { selectHeldPrivileges } from '../../machines/session.selectors';
import { sameListView, selectListView, selectPager } from '../../machines/resourceList.selectors';
import { matchRoute } from '../app/guard';
import { useSystemActor } from '../hooks/useSystemActor';
import { say, tx, useT } from '../i18n';
import { useTime } from '../ui/time';
import { resourceWords, titleOfColumn, type Resource } from './consoleResource';
import { udfColumns, useUserFieldDefs } from './userFieldDefs';
import { useViewActor } from '../hooks/useViewActor';
import { useChangeNotices, type NoticeSource } from '../hooks/useChangeNotices';
import { HEADER_HEIGHT, ROW_HEIGHT, cellText, columnHeader, primaryHeader, wrappedHeight, wrappedWidth, type ColumnSort } from './listColumns';
import { useIsMobile } from '../hooks/useMediaQuery';
import { primaryCellRenderer } from './ListRowHead';
import { ListToolbar } from './ListToolbar';
import { ListFooter } from './ListFooter';
import { useListCommands } from './useListCommands';
import { ALL_SCOPE, ListScopeTabs, scopeFilter, scopePanelProps, useListScope } from './ListScopes';

interface Props<T extends { id: number }> {
  resource: Resource<T>;
  /** extra buttons beside each row's name (e.g. Select on clients). */
  rowActions?: (row: T) => ReactNode;
  rowTag?: (row: T) => ReactNode;
  toolbar?: ReactNode;
  /** Filters the list starts with and keeps under the search text (e.g. today's visits). */
  filters?: Record<string, string>;
  /** The order the list starts in when not the declaration's (upcoming visits: soonest first). */
  sort?: SortSpec[];
  /** A command actor of the screen (machines/command.ts) whose every success changed rows: the list reads its page again. */
  refreshAfter?: ActorRefFrom<typeof commandMachine>;
  /** Real-time notices besides the resource's own change notice after which the open list reads its page again. */
  notices?: NoticeSource;
}

export function ResourceList<T extends { id: number }>({
  resource,
  rowActions,
  rowTag,
  toolbar,
  filters: initialFilters,
  sort: initialSort,
  refreshAfter,
  notices,
}: Props<T>) {
  const t = useT();
  const time = useTime(); // cells and time headers follow the user's zone and language
  const zoned = (title: string, on?: boolean) => (on ? `${title} (${time.zoneName()})` : title);
  const words = resourceWords(resource);
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
  // issue 50: the declaration's list scopes ("Waiting for me") as tabs, the choice kept in the URL
  const scope = useListScope(resource.declaration, held);
  const list = useViewActor(`list:${resource.name}`, {
    input: { resource: resource.name, sort: initialSort ?? resource.defaultSort, filters: { ...initialFilters, ...scopeFilter(scope.chosen) } },
  });
  const view = useSelector(list, selectListView, sameListView);
  const { page, sort, filters, selection, error, busy, confirming, deleting } = view;
  useEffect(() => {
    if (!scope.here || !scope.chosen || (filters.scope ?? ALL_SCOPE) === scope.chosen) return;
    const { scope: _was, ...rest } = filters;
    list.send({ type: 'list.filtered', filters: { ...rest, ...scopeFilter(scope.chosen) } });
  }, [scope.here, scope.chosen, filters, list]);
  const items = view.items as T[];
  const pager = useSelector(list, selectPager);

  useEffect(() => {
    const sub = refreshAfter?.on('command.done', () => list.send({ type: 'list.refresh' }));
    return () => sub?.unsubscribe();
  }, [refreshAfter, list]);
  // a row of this resource changed anywhere in the client (`/changes/{resource}`), or a kept-alive list is shown again
  // (an add or edit may have happened meanwhile): the open list reads its page again
  useChangeNotices({ resource: resource.name }, list, { type: 'list.refresh' });
  useChangeNotices(notices ?? null, list, { type: 'list.refresh' }, { shownAgain: false });

  // (a resource in privilege families: any family's code — the server keeps each row to its own family's)
  const codes = (action: 'add' | 'edit', code?: string) => (resource.declaration ? actionCodes(resource.declaration, action) : code ? [code] : []);
  const canAdd = !!resource.privileges.add && hasPrivilege(held, codes('add', resource.privileges.add));
  const canEdit = !!resource.privileges.edit && hasPrivilege(held, codes('edit', resource.privileges.edit));
  // a view holder opens a row read-only where the declaration says so (§2 Attendance: edit/{id} [3.x.2 or 3.x.0])
  // …and a record route without an edit code opens to whoever holds its codes (a visit request's details [1.4.0])
  const record = resource.declaration && (resource.privileges.edit || resource.declaration.screens?.editRoute) ? recordCodes(resource.declaration) : null;
  const canOpen = canEdit || (!!record && hasPrivilege(held, record));
  const canDelete = !!resource.bulkDelete && !!resource.privileges.delete && hasPrivilege(held, [resource.privileges.delete]);

  // the filter box: what is typed is visual until it settles, then it becomes the actor's filter
  const [text, setText] = useState(filters.q ?? ''); // visual: the search text as typed (sent to the list actor when typing stops)
  useEffect(() => {
    if ((filters.q ?? '') === text.trim()) return;
    const id = setTimeout(() => list.send({ type: 'list.filtered', filters: { ...filters, q: text.trim() } }), 300);
    return () => clearTimeout(id);
  }, [text, filters, list]);

  // an extensible resource (identities) shows the client's user-defined fields as columns after the declared ones
  const defs = useUserFieldDefs(!!resource.declaration?.extensible);
  const columns = useMemo(() => [...resource.columns, ...udfColumns<T>(defs)], [resource.columns, defs]);
  const [chosenWidths, setWidths] = useState<number[]>(() => [resource.primary.width ?? 260, ...resource.columns.map((c) => c.width ?? 150)]); // visual: the column widths dragged
  const mobile = useIsMobile();
  const widths = useMemo(
    () => [
      chosenWidths[0],
      ...columns.map((c, i) => {
        const w = chosenWidths[i + 1] ?? c.width ?? 150;
        return c.wrap ? wrappedWidth(w, chosenWidths[0], mobile, window.innerWidth) : w;
      }),
    ],
    [chosenWidths, columns, mobile],
  );

  const selected = useMemo(() => new Set(selection), [selection]);
  const setSelection = (ids: number[]) => list.send({ type: 'list.selectionChanged', ids });
  const toggle = (id: number) => setSelection(selected.has(id) ? selection.filter((x) => x !== id) : [...selection, id]);
  const allOnPage = items.length > 0 && items.every((r) => selected.has(r.id));

  const sortOf = (field: string) => sort.find((s) => s.field === field)?.dir;
  const sortBy = (field: string, dir: 'asc' | 'desc' | null) => list.send({ type: 'list.sorted', sort: dir ? [{ field, dir }] : ([] as SortSpec[]) });
  const { exporting, acting, serverExport, exportAs, runAction } = useListCommands(resource, columns, time.zone, filters, sort);
  const columnSort: ColumnSort = { sortOf, sortBy };

  // a row's own page (a visitor's details, an alarm group's zone) when the user may open it; else its edit form
  const detailOf = (row: T): string | null => {
    const path = resource.rowPath?.(row);
    if (!path) return null;
    const route = matchRoute(path).route;
    return hasPrivilege(held, route.privileges, route.mode) ? path : null;
  };
  // the row's other pages the user may open (declared row links)
  const linksOf = (row: T) =>
    (resource.rowLinks ?? [])
      .map((l) => ({ label: l.label, to: l.path(row) }))
      .filter((l) => {
        const route = matchRoute(l.to).route;
        return hasPrivilege(held, route.privileges, route.mode);
      });
  // declared named actions (a pulse of an output) for whoever holds their code; the answer is a toast
  const declaredActions = (resource.rowActions ?? []).filter((a) => hasPrivilege(held, [a.privilege]));
  const primaryCell = primaryCellRenderer(items, {
    resource,
    detailOf,
    linksOf,
    declaredActions,
    canOpen,
    canDelete,
    selected,
    toggle,
    acting,
    runAction,
    rowTag,
    rowActions,
  });

  // WCAG 2.1.1: Blueprint's grid scrolls in containers that may hold nothing focusable (the names and their links sit
  // in the frozen first column; a read-only report has no links): each such container takes the keyboard and is
  // named after the list
  const tableBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    for (const el of tableBox.current?.querySelectorAll<HTMLElement>('.bp6-table-quadrant-scroll-container') ?? []) {
      if (el.querySelector('a[href], button, input, [tabindex="0"]')) continue;
      if (el.tabIndex !== 0) el.tabIndex = 0;
      if (el.getAttribute('aria-label') !== words.many) el.setAttribute('aria-label', words.many);
      if (!el.hasAttribute('role')) el.setAttribute('role', 'region');
    }
  });

  // a row as tall as its wrapped cells need (their text whole), the others one line
  const rowHeights = columns.some((c) => c.wrap)
    ? items.map((row) => Math.max(ROW_HEIGHT, ...columns.map((c, i) => (c.wrap ? wrappedHeight(cellText(c, row), widths[i + 1]) : 0))))
    : undefined;
  const rowsHeight = (rowHeights ?? []).reduce((a, h) => a + h, 0) + Math.max(0, Math.max(items.length, 3) - (rowHeights?.length ?? 0)) * ROW_HEIGHT;
  const tableHeight = `min(${TABLE_MAX_HEIGHT_VH}vh, ${HEADER_HEIGHT + rowsHeight + 16}px)`;

  return (
    <div className="gh-list" data-testid={`${resource.name}-list`} aria-busy={busy || undefined}>
      <ListScopeTabs name={resource.name} tabs={scope.tabs} chosen={scope.chosen} onChoose={scope.choose} />
      {/* the list is the chosen scope tab's panel (the tab names it: aria-controls and aria-labelledby) */}
      <div {...scopePanelProps(resource.name, scope.tabs.length ? scope.chosen : undefined)}>
        <ListToolbar
          resource={resource}
          held={held}
          text={text}
          onText={setText}
          onFilterNow={() => list.send({ type: 'list.filtered', filters: { ...filters, q: text.trim() } })}
          busy={busy}
          toolbar={toolbar}
          canAdd={canAdd}
          canDelete={canDelete}
          marked={selection.length}
          onDelete={() => list.send({ type: 'list.deleteRequested' })}
          serverExport={serverExport}
          exporting={exporting}
          exportAs={exportAs}
          onRefresh={() => list.send({ type: 'list.refresh' })}
        />

        {error && (
          <Callout intent="danger" icon="error" className="gh-list__error">
            {say(error)}
          </Callout>
        )}

        <div className="gh-list__table" style={{ height: tableHeight }} ref={tableBox}>
          <Table2
            numRows={items.length}
            defaultRowHeight={ROW_HEIGHT}
            rowHeights={rowHeights}
            columnWidths={widths}
            onColumnWidthChanged={(i, w) => setWidths(() => widths.map((x, j) => (j === i ? w : x)))}
            enableColumnResizing
            enableRowHeader={false}
            enableFocusedCell={false}
            numFrozenColumns={1}
            selectionModes={SelectionModes.NONE}
            cellRendererDependencies={[items, selection, canOpen, canDelete, time, rowTag, rowActions]}
            loadingOptions={busy && items.length === 0 ? (['cells'] as never) : []}
          >
            {[
              <Column
                key="__primary"
                id="__primary"
                cellRenderer={primaryCell}
                columnHeaderCellRenderer={() =>
                  primaryHeader(
                    columnSort,
                    zoned(titleOfColumn(resource.primary), resource.primary.zoned),
                    resource.primary.field,
                    canDelete
                      ? {
                          allOnPage,
                          someOnPage: items.some((r) => selected.has(r.id)),
                          toggleAll: () =>
                            setSelection(
                              allOnPage ? selection.filter((id) => !items.some((r) => r.id === id)) : [...new Set([...selection, ...items.map((r) => r.id)])],
                            ),
                        }
                      : null,
                  )
                }
              />,
              ...columns.map((c) => (
                <Column
                  key={c.field}
                  id={c.field}
                  columnHeaderCellRenderer={columnHeader(columnSort, zoned(titleOfColumn(c), c.zoned), c.field, c.sortable !== false)}
                  cellRenderer={(i) => {
                    const row = items[i];
                    return (
                      <Cell wrapText={c.wrap} className={c.wrap ? 'gh-cell--wrap' : undefined}>
                        {row ? (c.render ? c.render(row) : cellText(c, row)) : ''}
                      </Cell>
                    );
                  }}
                />
              )),
            ]}
          </Table2>
          {!busy && items.length === 0 && !error && (
            <div className="gh-list__empty">
              <NonIdealState icon="search" title={t('noRows')} description={filters.q ? tx('Nothing matches “{q}”.', { q: filters.q }) : undefined} />
            </div>
          )}
        </div>

        <ListFooter pager={pager} page={page} marked={selection.length} onPage={(p) => list.send({ type: 'list.pageChanged', page: p })} />

        <Alert
          isOpen={confirming || deleting}
          loading={deleting}
          intent="danger"
          icon="trash"
          confirmButtonText={tx('Delete {n}', { n: selection.length })}
          cancelButtonText={t('cancel')}
          onConfirm={() => list.send({ type: 'list.deleteConfirmed' })}
          onCancel={() => list.send({ type: 'list.deleteCancelled' })}
        >
          <p>
            {tx('Delete {n} {what}? This cannot be undone.', {
              n: selection.length,
              what: selection.length === 1 ? words.one.toLowerCase() : words.many.toLowerCase(),
            })}
          </p>
        </Alert>
      </div>
    </div>
  );
}
