// The generic list of a resource: server paging, sort (column header menus), filter, column resize, row
// selection, bulk delete with confirm, CSV export of the filtered rows. State lives in the resourceList actor.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Button, ButtonGroup, Callout, Checkbox, Icon, InputGroup, Menu, MenuItem, NonIdealState, Spinner, Tag, type IconName } from '@blueprintjs/core';
import { Cell, Column, ColumnHeaderCell, SelectionModes, Table2 } from '@blueprintjs/table';
import { useSelector } from '@xstate/react';
import { TABLE_MAX_HEIGHT_VH, actionCodes, hasPrivilege, recordCodes, type SortSpec } from '../../contract';
import { selectHeldPrivileges } from '../../machines/session.selectors';
import type { ResourceListSnapshot } from '../../machines/resourceList';
import { selectPager } from '../../machines/resourceList.selectors';
import type { ExportInput, RowActionInput } from '../hooks/answers';
import { selectRunningCommand } from '../../machines/command';
import { matchRoute } from '../app/guard';
import { useSystemActor } from '../hooks/useSystemActor';
import { say, tx, useT } from '../i18n';
import { notify } from '../hooks/console';
import { useTime } from '../ui/time';
import { toCsv } from './csv';
import { zonedHeader, zonedTime } from '../../contract/tabular';
import { resourceWords, titleOfColumn, type Resource } from './defineResource';
import { udfColumns, useUserFieldDefs } from './userFieldDefs';
import { useViewActor } from '../hooks/useViewActor';
import { useChangeNotices, type NoticeSource } from '../hooks/useChangeNotices';
import { ExportButtons, type ExportFormat } from '../ui/ExportButtons';

const ROW_HEIGHT = 34;
const HEADER_HEIGHT = 32;

const selItems = (s: ResourceListSnapshot) => s.context.items as { id: number }[];
const selPage = (s: ResourceListSnapshot) => s.context.page;
const selSort = (s: ResourceListSnapshot) => s.context.sort;
const selFilters = (s: ResourceListSnapshot) => s.context.filters;
const selSelection = (s: ResourceListSnapshot) => s.context.selection;
const selError = (s: ResourceListSnapshot) => s.context.error;
const selBusy = (s: ResourceListSnapshot) => s.hasTag('busy');
const selConfirming = (s: ResourceListSnapshot) => s.matches('confirmingDelete');
const selDeleting = (s: ResourceListSnapshot) => s.matches('deleting');

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
  /** Read the current page again whenever this changes (e.g. a real-time message said the data changed). */
  refreshKey?: number;
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
  refreshKey,
  notices,
}: Props<T>) {
  const t = useT();
  const time = useTime(); // cells and time headers follow the user's zone and language
  const zoned = (title: string, on?: boolean) => (on ? `${title} (${time.zoneName()})` : title);
  const words = resourceWords(resource);
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
  const list = useViewActor(`list:${resource.name}`, {
    input: { resource: resource.name, sort: initialSort ?? resource.defaultSort, filters: initialFilters },
  });
  const items = useSelector(list, selItems) as T[];
  const pager = useSelector(list, selectPager);
  const page = useSelector(list, selPage);
  const sort = useSelector(list, selSort);
  const filters = useSelector(list, selFilters);
  const selection = useSelector(list, selSelection);
  const error = useSelector(list, selError);
  const busy = useSelector(list, selBusy);
  const confirming = useSelector(list, selConfirming);
  const deleting = useSelector(list, selDeleting);

  useEffect(() => {
    if (refreshKey) list.send({ type: 'list.refresh' });
  }, [refreshKey, list]);
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
  const [text, setText] = useState(filters.q ?? '');
  useEffect(() => {
    if ((filters.q ?? '') === text.trim()) return;
    const id = setTimeout(() => list.send({ type: 'list.filtered', filters: { ...filters, q: text.trim() } }), 300);
    return () => clearTimeout(id);
  }, [text, filters, list]);

  // an extensible resource (identities) shows the client's user-defined fields as columns after the declared ones
  const defs = useUserFieldDefs(!!resource.declaration?.extensible);
  const columns = useMemo(() => [...resource.columns, ...udfColumns<T>(defs)], [resource.columns, defs]);
  const [chosenWidths, setWidths] = useState<number[]>(() => [resource.primary.width ?? 260, ...resource.columns.map((c) => c.width ?? 150)]);
  const widths = useMemo(() => [chosenWidths[0], ...columns.map((c, i) => chosenWidths[i + 1] ?? c.width ?? 150)], [chosenWidths, columns]);

  const selected = useMemo(() => new Set(selection), [selection]);
  const setSelection = (ids: number[]) => list.send({ type: 'list.selectionChanged', ids });
  const toggle = (id: number) => setSelection(selected.has(id) ? selection.filter((x) => x !== id) : [...selection, id]);
  const allOnPage = items.length > 0 && items.every((r) => selected.has(r.id));

  const sortOf = (field: string) => sort.find((s) => s.field === field)?.dir;
  const sortBy = (field: string, dir: 'asc' | 'desc' | null) => list.send({ type: 'list.sorted', sort: dir ? [{ field, dir }] : ([] as SortSpec[]) });

  // the list's commands (export, named row actions) run in the resource's command actor, a child of the system: one at
  // a time, each answer emitted; a failure has been said by the error chain
  const commands = useViewActor(`commands:${resource.name}`);
  const running = useSelector(commands, selectRunningCommand);
  const runningInput = useSelector(commands, (s) => (s.hasTag('busy') ? s.context.input : null)) as { id?: number; action?: string } | null;
  const exporting = running === 'export';
  const acting = running === 'action' && runningInput ? `${runningInput.action}:${runningInput.id}` : null;
  // a resource the server exports offers CSV and XLSX (the server's one tabular writer); another, CSV written here
  const serverExport = !!resource.declaration?.export?.includes('csv');
  const exportAs = (format: ExportFormat) =>
    commands.send({ type: 'command.run', command: 'export', input: { filters, sort, serverCsv: serverExport, format } satisfies ExportInput });
  // a row action's toast is said here from its declaration, the row's name kept by the view: no view text travels
  // through the actor (its input is journaled)
  const actionRows = useRef(new Map<string, string>());
  const runAction = (a: NonNullable<Resource<T>['rowActions']>[number], row: T, name: string) => {
    actionRows.current.set(`${a.action}:${row.id}`, name);
    commands.send({ type: 'command.run', command: 'action', input: { id: row.id, action: a.action } satisfies RowActionInput });
  };
  useEffect(() => {
    const sub = commands.on('command.done', ({ command, result }) => {
      if (command === 'action') {
        const ran = commands.getSnapshot().context.input as RowActionInput;
        const declared = resource.rowActions?.find((a) => a.action === ran.action);
        const name = actionRows.current.get(`${ran.action}:${ran.id}`) ?? '';
        if (declared) notify({ intent: 'success', title: tx(declared.done, { name }), message: '', timeoutMs: 3000 });
        return;
      }
      // a resource the server exports answers its CSV; another answers its rows, written here as the columns show them
      // a time column: ISO 8601 with the zone's offset, the zone named in its header (as the server's files)
      const head = (title: string, on?: boolean) => (on ? zonedHeader(title, time.zone) : title);
      const cell = (c: { field: string; zoned?: boolean }, r: T, shown: string) =>
        c.zoned ? (zonedTime((r as Record<string, unknown>)[c.field], time.zone) ?? shown) : shown;
      const csv =
        result instanceof Blob
          ? result
          : new Blob(
              [
                toCsv(
                  [head(titleOfColumn(resource.primary), resource.primary.zoned), ...columns.map((c) => head(titleOfColumn(c), c.zoned))],
                  (result as T[]).map((r) => [cell(resource.primary, r, resource.primary.value(r)), ...columns.map((c) => cell(c, r, cellText(c, r)))]),
                ),
              ],
              { type: 'text/csv;charset=utf-8' },
            );
      const url = URL.createObjectURL(csv);
      const link = Object.assign(document.createElement('a'), {
        href: url,
        download: `${resource.name}.${(commands.getSnapshot().context.input as ExportInput | undefined)?.format ?? 'csv'}`,
      });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    });
    return () => sub.unsubscribe();
  }, [commands, columns, resource, time.zone]);

  const header = (title: string, field: string, sortable: boolean) => () => (
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
  const primaryCell = (i: number) => {
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

  // beyond the server's count cap the total is a lower bound: "1–20 of 10,000+", no last page, next still open
  const num = (n: number) => n.toLocaleString('en-US');
  const range = { from: num(pager.from), to: num(pager.to), total: num(pager.total) };
  const tableHeight = `min(${TABLE_MAX_HEIGHT_VH}vh, ${HEADER_HEIGHT + Math.max(items.length, 3) * ROW_HEIGHT + 16}px)`;

  return (
    <div className="gh-list" data-testid={`${resource.name}-list`} aria-busy={busy || undefined}>
      <div className="gh-list__toolbar">
        <InputGroup
          className="gh-list__filter"
          leftIcon="search"
          type="search"
          placeholder={resource.filterPlaceholder ? tx(resource.filterPlaceholder) : t('search')}
          aria-label={tx('Filter {what}', { what: words.many.toLowerCase() })}
          name="filter"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') list.send({ type: 'list.filtered', filters: { ...filters, q: text.trim() } });
          }}
          rightElement={busy ? <Spinner size={16} /> : undefined}
        />
        <div className="gh-list__spacer" />
        {(resource.declaration?.screens?.toolbarLinks ?? [])
          .filter((l) => hasPrivilege(held, [l.privilege]))
          .map((l) => (
            <Link key={l.route} to={l.route} className="bp6-button bp6-minimal" data-testid={`toolbar-link-${l.route.split('/').pop()}`}>
              {l.icon && <Icon icon={l.icon as IconName} />}
              <span className="bp6-button-text">{tx(l.label)}</span>
            </Link>
          ))}
        {toolbar}
        <ButtonGroup className="gh-list__actions">
          {canDelete && (
            <Button
              icon="trash"
              intent="danger"
              variant="outlined"
              disabled={selection.length === 0}
              onClick={() => list.send({ type: 'list.deleteRequested' })}
              data-testid="bulk-delete"
            >
              {t('deleteSelected')}
              {selection.length ? ` (${selection.length})` : ''}
            </Button>
          )}
          {serverExport ? (
            <ExportButtons onExport={exportAs} loading={exporting} testId="export-csv" csvText={t('exportCsv')} />
          ) : (
            <Button icon="export" variant="outlined" loading={exporting} onClick={() => exportAs('csv')} data-testid="export-csv">
              {t('exportCsv')}
            </Button>
          )}
          <Button icon="refresh" variant="outlined" aria-label={t('refresh')} onClick={() => list.send({ type: 'list.refresh' })} />
          {canAdd && (
            <Link to={resource.addPath ?? `${resource.path}/add`} className="bp6-button bp6-intent-primary" data-testid="add-button">
              <span className="bp6-icon bp6-icon-plus" aria-hidden />{' '}
              <span className="bp6-button-text">{words.addLabel ?? tx('Add {what}', { what: words.one.toLowerCase() })}</span>
            </Link>
          )}
        </ButtonGroup>
      </div>

      {error && (
        <Callout intent="danger" icon="error" className="gh-list__error">
          {say(error)}
        </Callout>
      )}

      <div className="gh-list__table" style={{ height: tableHeight }} ref={tableBox}>
        <Table2
          numRows={items.length}
          defaultRowHeight={ROW_HEIGHT}
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
              columnHeaderCellRenderer={() => (
                <ColumnHeaderCell
                  name={zoned(titleOfColumn(resource.primary), resource.primary.zoned)}
                  nameRenderer={(name) => (
                    <span className="gh-colhead gh-colhead--primary">
                      {/* rows are marked only to be deleted together: a list nobody here may delete from has no marks */}
                      {canDelete && (
                        <Checkbox
                          className="gh-rowhead__check"
                          checked={allOnPage}
                          indeterminate={!allOnPage && items.some((r) => selected.has(r.id))}
                          onChange={() =>
                            setSelection(
                              allOnPage ? selection.filter((id) => !items.some((r) => r.id === id)) : [...new Set([...selection, ...items.map((r) => r.id)])],
                            )
                          }
                          aria-label={tx('Mark all rows on this page')}
                        />
                      )}
                      {name}
                      {sortOf(resource.primary.field) && (
                        <span className={`bp6-icon bp6-icon-${sortOf(resource.primary.field) === 'asc' ? 'sort-asc' : 'sort-desc'} gh-colhead__sort`} />
                      )}
                    </span>
                  )}
                  menuRenderer={() => (
                    <Menu>
                      <MenuItem icon="sort-asc" text={tx('Sort ascending')} onClick={() => sortBy(resource.primary.field, 'asc')} />
                      <MenuItem icon="sort-desc" text={tx('Sort descending')} onClick={() => sortBy(resource.primary.field, 'desc')} />
                    </Menu>
                  )}
                />
              )}
            />,
            ...columns.map((c) => (
              <Column
                key={c.field}
                id={c.field}
                columnHeaderCellRenderer={header(zoned(titleOfColumn(c), c.zoned), c.field, c.sortable !== false)}
                cellRenderer={(i) => {
                  const row = items[i];
                  return <Cell>{row ? (c.render ? c.render(row) : cellText(c, row)) : ''}</Cell>;
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

      <div className="gh-list__footer">
        <span data-testid="list-range">{pager.atLeast ? tx('{from}–{to} of {total}+', range) : tx('{from}–{to} of {total}', range)}</span>
        {selection.length > 0 && (
          <Tag minimal round intent="primary">
            {tx('{n} selected', { n: selection.length })}
          </Tag>
        )}
        <div className="gh-list__spacer" />
        <ButtonGroup variant="minimal">
          <Button
            icon="double-chevron-left"
            aria-label={tx('First page')}
            disabled={page === 0}
            onClick={() => list.send({ type: 'list.pageChanged', page: 0 })}
          />
          <Button
            icon="chevron-left"
            aria-label={tx('Previous page')}
            disabled={page === 0}
            onClick={() => list.send({ type: 'list.pageChanged', page: page - 1 })}
          />
          <span className="gh-list__page">
            {tx(pager.atLeast ? 'Page {page} of {pages}+' : 'Page {page} of {pages}', { page: num(page + 1), pages: num(pager.pages) })}
          </span>
          <Button
            icon="chevron-right"
            aria-label={tx('Next page')}
            disabled={!pager.hasNext}
            onClick={() => list.send({ type: 'list.pageChanged', page: page + 1 })}
          />
          <Button
            icon="double-chevron-right"
            aria-label={tx('Last page')}
            disabled={pager.lastPage === null || page >= pager.lastPage}
            onClick={() => pager.lastPage !== null && list.send({ type: 'list.pageChanged', page: pager.lastPage })}
          />
        </ButtonGroup>
      </div>

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
  );
}

function cellText<T>(c: { field: string; value?: (row: T) => string }, row: T): string {
  if (c.value) return c.value(row);
  const v = (row as Record<string, unknown>)[c.field];
  return v === null || v === undefined ? '' : String(v);
}
