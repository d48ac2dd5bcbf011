// The generic list, form and list commands of a catalogue resource (`list:identities`, `form:doors`,
// `commands:identities`) or of one of the few lists declared only for the console (the reports' lists, the sessions
// lists), made once per resource from its declaration. Issue 48: loaded with the first screen that asks for one (./logic.ts
// viewLogicReady), not at the console's start: the catalogue's full declarations (contract/resources) come with it.
import { provided } from '../../machines/defined';
import type { Struct } from 'superstruct';
import { apiPaths, resourceByName, rowSchema } from '../../contract/resources';
import { CONSOLE_LISTS } from '../../contract/consoleLists';
import { createResourceFormMachine } from '../../machines/resourceForm';
import { createResourceListMachine } from '../../machines/resourceList';
import { commandMachine } from '../../machines/command';
import { resourceActors } from './resourceActors';
import { sessionActors } from './sessionActors';

/** The resource lists and forms of this console: made once per resource. */
const resourceMachines = (api: string, schema: Struct<any, any>, bulkDelete?: string, shownOnce: readonly string[] = [], singleton = false) => {
  const a = resourceActors(api, schema, bulkDelete, shownOnce, singleton);
  return {
    list: createResourceListMachine({ fetchPage: a.fetchPage, deleteMany: a.deleteMany }),
    form: createResourceFormMachine({ load: a.load, save: a.save, act: a.act }),
    /** The list screen's commands: export, named row actions (one at a time, each answer emitted). */
    commands: provided(commandMachine, { actors: { run: a.command } }),
  };
};
export type ResourceView = keyof ReturnType<typeof resourceMachines>;
export type ResourceLogics = ReturnType<typeof resourceMachines>;

/** Lists the console declares for itself (not catalogue resources): those over a REST path and row (contract's
 *  CONSOLE_LISTS, the report screens' source too), and the sessions lists. */
const CONSOLE_LOGICS: Record<string, () => Partial<ResourceLogics>> = {
  ...Object.fromEntries(Object.entries(CONSOLE_LISTS).map(([name, l]) => [name, () => resourceMachines(l.api, l.schema)])),
  'operator-sessions': () => ({ list: createResourceListMachine({ fetchPage: sessionActors('operator').fetchPage }) }),
  'service-sessions': () => ({ list: createResourceListMachine({ fetchPage: sessionActors('service').fetchPage }) }),
};

const made = new Map<string, Partial<ResourceLogics>>();
/** A resource's list, form and commands logic, made the first time it is asked for; undefined: no such resource. */
export function resourceLogics(name: string): Partial<ResourceLogics> | undefined {
  let m = made.get(name);
  if (m) return m;
  const d = resourceByName(name);
  if (d)
    m = resourceMachines(
      d.api,
      rowSchema(d),
      d.privileges.delete ? apiPaths(d).bulkDelete : undefined,
      d.screens?.shownOnce?.map((x) => x.field),
      !!d.singleton,
    );
  else m = CONSOLE_LOGICS[name]?.();
  if (m) made.set(name, m);
  return m;
}
