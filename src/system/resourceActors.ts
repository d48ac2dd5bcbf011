// Actors for the generic list/form machines over one resource's REST calls (used by src/resources).
import { fromPromise } from 'xstate';
import type { Struct } from 'superstruct';
import type { PageOf } from '../../contract';
import type { ListQueryInput } from '../../machines/resourceList';
import type { ActInput, Acted, SaveInput, Saved } from '../../machines/resourceForm';
import { resourceApi } from '../api/endpointsScreens';
import { loadAll } from '../api/queue';

/** The list's export: the server's streamed CSV of the filtered rows, or (a resource the server does not export) every filtered row, for the view to write as CSV. */
export type ExportInput = { filters: Record<string, unknown>; sort: readonly unknown[]; serverCsv: boolean; format?: 'csv' | 'xlsx' };
/** A declared named row action (a pulse of an output). */
export type RowActionInput = { id: number; action: string };

export function resourceActors<T extends { id: number }>(
  path: string,
  schema: Struct<T, any>,
  bulkDeletePath?: string,
  shownOnce: readonly string[] = [],
  singleton = false,
) {
  const r = resourceApi(path, schema, bulkDeletePath);
  return {
    /** The resource's REST calls themselves (the list's export and named row actions). */
    calls: r,
    fetchPage: fromPromise<PageOf<unknown>, ListQueryInput>(({ input }) =>
      r.list({ page: input.page, size: input.size, sort: input.sort, filters: input.filters }),
    ),
    /** The list screen's commands (machines/command.ts): `export` and `action`, their input as above. */
    command: fromPromise<unknown, { command: string; input?: unknown }>(async ({ input }) => {
      if (input.command === 'export') {
        const x = input.input as ExportInput;
        if (x.serverCsv) return r.exportCsv(x.filters as never, x.format);
        return loadAll((page, size) => r.list({ page, size, sort: x.sort as never, filters: x.filters as never }));
      }
      if (input.command === 'action') {
        const x = input.input as RowActionInput;
        return r.action(x.id, x.action);
      }
      throw new Error(`Unknown list command ${input.command}`);
    }),
    deleteMany: fromPromise<unknown, { resource: string; ids: number[] }>(({ input }) => r.bulkDelete(input.ids)),
    // a tenant's settings (a singleton) are read and written at the resource's path itself, whatever the id
    load: fromPromise<unknown, { id: number }>(({ input }) => (singleton ? r.getOne() : r.get(input.id))),
    /** A record action from its page (form.act), with the body it declares (a reason). */
    act: fromPromise<Acted, ActInput>(async ({ input }) => {
      const answered = (await r.action(input.id, input.action, input.input)) as Record<string, unknown>;
      // a value shown once (a controller's new edge key) goes apart from the row
      const shown = Object.fromEntries(shownOnce.map((k) => [k, answered?.[k]]).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
      if (!Object.keys(shown).length) return { row: answered };
      const row = { ...answered };
      for (const k of Object.keys(shown)) delete row[k];
      return { row, shown };
    }),
    save: fromPromise<Saved, SaveInput>(async ({ input }) => {
      const saved = singleton ? await r.updateOne(input.values) : input.id === null ? await r.create(input.values) : await r.update(input.id, input.values);
      const shown = Object.fromEntries(shownOnce.map((k) => [k, (saved as Record<string, unknown>)[k]]).filter(([, v]) => typeof v === 'string'));
      return Object.keys(shown).length ? { id: saved.id, shown: shown as Record<string, string> } : { id: saved.id };
    }),
  };
}
