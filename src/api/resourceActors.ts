// Actors for the generic list/form machines over one resource's REST calls (used by src/resources).
import { fromPromise } from 'xstate';
import type { Struct } from 'superstruct';
import type { PageOf } from '../../contract';
import type { ListQueryInput } from '../../machines/resourceList';
import type { SaveInput, Saved } from '../../machines/resourceForm';
import { resourceApi } from './endpoints';

export function resourceActors<T extends { id: number }>(path: string, schema: Struct<T, any>, bulkDeletePath?: string, shownOnce: readonly string[] = []) {
  const r = resourceApi(path, schema, bulkDeletePath);
  return {
    /** The resource's REST calls themselves (the list's export and named row actions). */
    calls: r,
    fetchPage: fromPromise<PageOf<unknown>, ListQueryInput>(({ input }) => r.list({ page: input.page, size: input.size, sort: input.sort, filters: input.filters })),
    deleteMany: fromPromise<unknown, { resource: string; ids: number[] }>(({ input }) => r.bulkDelete(input.ids)),
    load: fromPromise<unknown, { id: number }>(({ input }) => r.get(input.id)),
    save: fromPromise<Saved, SaveInput>(async ({ input }) => {
      const saved = input.id === null ? await r.create(input.values) : await r.update(input.id, input.values);
      const shown = Object.fromEntries(shownOnce.map((k) => [k, (saved as Record<string, unknown>)[k]]).filter(([, v]) => typeof v === 'string'));
      return Object.keys(shown).length ? { id: saved.id, shown: shown as Record<string, string> } : { id: saved.id };
    }),
  };
}
