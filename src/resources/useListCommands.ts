// A resource list's commands (export, named row actions): they run in the resource's command actor, a child of the
// system, one at a time, each answer emitted; a failure has been said by the error chain. A row action's toast is
// said here from its declaration, the row's name kept by the view (no view text travels through the journaled
// actor); an export downloads the server's file, or the rows written here as CSV as the columns show them.
import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { SortSpec } from '../../contract';
import { zonedHeader, zonedTime } from '../../contract/tabular';
import { selectRunningCommand } from '../../machines/command';
import type { ExportInput, RowActionInput } from '../hooks/answers';
import { notify } from '../hooks/console';
import { useViewActor } from '../hooks/useViewActor';
import { tx } from '../i18n';
import type { ExportFormat } from '../ui/ExportButtons';
import { toCsv } from './csv';
import { titleOfColumn, type ColumnDef, type Resource } from './consoleResource';
import { cellText } from './listColumns';
import type { RowAction } from './ListRowHead';

export function useListCommands<T extends { id: number }>(
  resource: Resource<T>,
  columns: ColumnDef<T>[],
  zone: string,
  filters: Record<string, string>,
  sort: SortSpec[],
) {
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
  const actionRows = useRef(new Map<string, string>()); // visual: the row names a row action's toast says
  const runAction = (a: RowAction<T>, row: T, name: string) => {
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
      const head = (title: string, on?: boolean) => (on ? zonedHeader(title, zone) : title);
      const cell = (c: { field: string; zoned?: boolean }, r: T, shown: string) =>
        c.zoned ? (zonedTime((r as Record<string, unknown>)[c.field], zone) ?? shown) : shown;
      const csv =
        result instanceof Blob
          ? result
          : new Blob(
              [
                toCsv(
                  [
                    head(titleOfColumn(resource.primary), resource.primary.zoned),
                    ...(resource.file ? resource.file.columns.map((c) => tx(c)) : columns.map((c) => head(titleOfColumn(c), c.zoned))),
                  ],
                  (result as T[]).map((r) => [
                    cell(resource.primary, r, resource.primary.value(r)),
                    ...(resource.file ? resource.file.cells(r) : columns.map((c) => cell(c, r, cellText(c, r)))),
                  ]),
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
  }, [commands, columns, resource, zone]);

  return { exporting, acting, serverExport, exportAs, runAction };
}
