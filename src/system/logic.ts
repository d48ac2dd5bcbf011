// The console's wiring (issue 28): the logic of every view's own actor, registered here by id, once. A view never
// brings logic: it asks the `views` actor (machines/views.ts) to open `'dailyAttendanceReading'` or
// `'list:identities'` through its hook (src/hooks/useViewActor.ts), and the system resolves the id here: the same
// machines with their REST calls, streams and devices provided (src/api holds only the transport: the client and the raw calls). A replay resolves the ids
// its own way (machines/journal.ts), so what a view runs is decided in one place, not in the view.
//
// Two kinds of id:
// - a name of the registry below (`doorCommands`, `threatLevelLogic`, `forgotPasswordMachine`, ...);
// - `list:<resource>`, `form:<resource>`, `commands:<resource>`: the generic list, form and list commands of a catalogue
//   resource (contract/resources) or of one of the few resources declared only for the console (the reports' lists,
//   the sessions lists), made once per resource.
import { fromPromise, type AnyActorLogic } from 'xstate';
import type { Struct } from 'superstruct';
import { apiPaths, resourceByName, rowSchema, type EndSessionsResult, type PageOf, type SessionKind } from '../../contract';
import { CONSOLE_LISTS } from '../../contract/consoleLists';
import { createResourceFormMachine } from '../../machines/resourceForm';
import { createResourceListMachine } from '../../machines/resourceList';
import { commandMachine } from '../../machines/command';
import { sessionEndMachine } from '../../machines/sessionEnd';
import { badgePrintMachine } from '../../machines/badgePrint';
import type { ListQueryInput } from '../../machines/resourceList';
import { endSessions, listSessions } from '../api/sessions';
import * as reads from './readActors';
import { liveEvents } from './liveEventActors';
import * as passwords from './passwordActors';
import * as mfaProfile from './mfaProfileActors';
import { resourceActors } from './resourceActors';
import { printBadgeLogic } from './printBadge';
import { floorPlanTimeLogic } from './floorPlanTimeLogic';

/** The resource lists and forms of this console: made once per resource. */
const resourceMachines = (api: string, schema: Struct<any, any>, bulkDelete?: string, shownOnce: readonly string[] = [], singleton = false) => {
  const a = resourceActors(api, schema, bulkDelete, shownOnce, singleton);
  return {
    list: createResourceListMachine({ fetchPage: a.fetchPage, deleteMany: a.deleteMany }),
    form: createResourceFormMachine({ load: a.load, save: a.save, act: a.act }),
    /** The list screen's commands: export, named row actions (one at a time, each answer emitted). */
    commands: commandMachine.provide({ actors: { run: a.command } }),
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
function resourceLogics(name: string): Partial<ResourceLogics> | undefined {
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

/** The Monitor sessions screens' actors (issue 4): a page of sessions, ending some. */
const sessionActors = (kind: SessionKind) => ({
  fetchPage: fromPromise<PageOf<unknown>, ListQueryInput>(({ input }) =>
    listSessions(kind, { page: input.page, size: input.size, sort: input.sort, filters: input.filters }),
  ),
  endSessions: fromPromise<EndSessionsResult, { ids: number[] }>(({ input }) => endSessions(kind, input.ids)),
});
/** A session list's end-sessions actor. */
const sessionEnd = (kind: SessionKind) => sessionEndMachine.provide({ actors: { endSessions: sessionActors(kind).endSessions } });

/** A visitor badge printed by the desktop companion (the system's `companion` actor). */
const badgePrintLogic = badgePrintMachine.provide({ actors: { print: printBadgeLogic() } });

const NAMED = {
  ...reads,
  ...passwords,
  ...mfaProfile,
  liveEvents,
  operatorSessionEnd: sessionEnd('operator'),
  serviceSessionEnd: sessionEnd('service'),
  badgePrintLogic,
  floorPlanTimeLogic,
};
type Named = typeof NAMED;

/** The registry's ids: every named logic a view may ask for. */
export type ViewLogicId = { [K in keyof Named]: Named[K] extends AnyActorLogic ? K : never }[keyof Named] & string;
export type ViewLogics = { [K in ViewLogicId]: Named[K] };
/** The ids whose logic is of one kind (every reading, every command actor). */
export type LogicIdOf<L> = { [K in ViewLogicId]: ViewLogics[K] extends L ? K : never }[ViewLogicId];
/** `list:identities`, `form:doors`, `commands:identities`. */
export type ResourceLogicId = `${ResourceView}:${string}`;

// the shapes of their answers, for the views that show them (src/hooks/answers.ts)
export type { ServerFile } from '../api/files';
export type { ExportFormat } from '../api/stream';
export type { ExportInput, RowActionInput } from './resourceActors';
export type {
  AccessPreview,
  AccessPreviewAnswer,
  AlarmGroupRow,
  AuditChainReport,
  DiscoveredBoard,
  EventExportInput,
  OperatorSettingsValues,
  PrivilegeHoldersRow,
  ReportJobRun,
  ReportJobRuns,
  SpecialDateRow,
  Tick,
} from './readActors';

const isLogic = (x: unknown): x is AnyActorLogic => typeof x === 'object' && x !== null && 'transition' in x && 'getInitialSnapshot' in x;

/** The logic of a view actor's label (its id without `#n`), or undefined when there is none. */
export function viewLogic(label: string): AnyActorLogic | undefined {
  const resource = /^(list|form|commands):(.+)$/.exec(label);
  if (resource) return resourceLogics(resource[2])?.[resource[1] as ResourceView];
  const named = (NAMED as Record<string, unknown>)[label];
  return isLogic(named) ? named : undefined;
}
