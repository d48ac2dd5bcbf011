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
//
// Issue 48: the ids the console's start asks for (the header's client menu, the opening screen's readings and
// commands) are in ./openingActors.ts; every other one, with the screens' REST calls and the catalogue's declarations,
// is in ./screenLogic.ts, loaded when a view first asks for one: viewLogicReady says what that view waits for (the
// hooks suspend it), and viewLogic answers once it is in.
import type { AnyActorLogic } from 'xstate';
import * as opening from './openingActors';
import type * as screenLogic from './screenLogic';
import type { ResourceView } from './resourceLogic';

export type { ResourceLogics, ResourceView } from './resourceLogic';

/** The other screens' logic (./screenLogic.ts) once loaded: issue 48, neither it nor the catalogue's declarations are
 *  read at the console's start. */
let screens: typeof screenLogic | null = null;
let screensLoading: Promise<void> | null = null;
const loadScreens = () =>
  (screensLoading ??= import('./screenLogic').then(
    (m) => {
      screens = m;
    },
    (e: unknown) => {
      screensLoading = null; // a failed fetch is tried again by the next view that asks
      throw e;
    },
  ));

type Named = typeof opening & typeof screenLogic.SCREEN_LOGICS;

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

const RESOURCE_LABEL = /^(list|form|commands):(.+)$/;
const isLogic = (x: unknown): x is AnyActorLogic => typeof x === 'object' && x !== null && 'transition' in x && 'getInitialSnapshot' in x;

/** The logic of a view actor's label (its id without `#n`), or undefined when there is none. */
export function viewLogic(label: string): AnyActorLogic | undefined {
  const resource = RESOURCE_LABEL.exec(label);
  if (resource) return screens?.resourceLogics(resource[2])?.[resource[1] as ResourceView];
  const named = Object.hasOwn(opening, label)
    ? (opening as Record<string, unknown>)[label]
    : (screens?.SCREEN_LOGICS as Record<string, unknown> | undefined)?.[label];
  return isLogic(named) ? named : undefined;
}

/** Null when the logic of a view actor's label can be asked for now (viewLogic), else what it waits for: the screens'
 *  logic loads with the first view that asks for an id the start does not hold (the hooks suspend that view until it
 *  is in). */
export function viewLogicReady(label: string): Promise<void> | null {
  if (screens || (Object.hasOwn(opening, label) && isLogic((opening as Record<string, unknown>)[label]))) return null;
  return loadScreens();
}

/** The screens' logic, loaded (tests, and whoever must resolve every id at once). */
export const loadScreenLogic = (): Promise<void> => loadScreens();
