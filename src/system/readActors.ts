// The REST calls of the screen-owned machines (machines/reading.ts, machines/threatLevel.ts, machines/doorQr.ts),
// provided here so views only create the actor and read it (issue 11: no view calls src/api/endpoints).
import { defined, provided } from '../../machines/defined';
import { fromCallback, fromPromise } from 'xstate';
import { downloadMachine, type DownloadEvent } from '../../machines/download';
import { readingMachine } from '../../machines/reading';
import { errorSaid } from '../../machines/notProvided';
import { threatLevelMachine, type ThreatLevelInput, type ThreatRead, type ThreatRequest } from '../../machines/threatLevel';
import { doorQrCodeMachine, doorQrMachine, type DoorQrAnswer, type DoorQrTurn } from '../../machines/doorQr';
import type { DoorCommand, OsdpScanScope } from '../../contract';
import { commandMachine } from '../../machines/command';
import { restoreMachine } from '../../machines/restore';
import { optionsOf } from '../api/endpoints';
import {
  operatorAction,
  addVisitorCredentials,
  buildTimesheet,
  getDailyAttendance,
  getAttendanceSummary,
  listTeamChoices,
  armAlarmGroup,
  listUserFieldDefs,
  controllerDiagnostic,
  controllerHub,
  doorCommand,
  explainEvent,
  getAlarmGroup,
  lockdown,
  deleteDivision,
  discoverInterfaces,
  forgiveInZone,
  pingController,
  zoneOccupancy,
  zoneOccupants,
  doorQrCode,
  listDoorQr,
  listDivisions,
  listSpecialDates,
  setDoorQr,
  setThreatLevel,
  threatCurrent,
  threatLevelChoices,
  threatSetChoices,
  assignPrivileges,
  backupFile,
  batchErrorReport,
  deleteBackup,
  listBackups,
  platformHistory,
  listReportJobRuns,
  reportJobFile,
  retryReportJobRun,
  restoreBackup,
  takeBackup,
  uploadBackup,
  batchImportPath,
  getOperatorSettings,
  getVisitor,
  listPrivilegeHolders,
  moveVisitor,
  previewAccessChange,
  previewBatchUpload,
  redeliverWebHook,
  resourceApi,
  revokeApiKey,
  roleName,
  roleTicks,
  rotateApiKey,
  saveOperatorSettings,
  webHookAttempts,
  type AccessPreview,
  type OperatorSettingsValues,
  type Tick,
  auditChainExport,
  auditChainVerify,
  alarmHandlingFile,
  getAlarmHandling,
  listHandovers,
} from '../api/endpointsScreens';
import { formCommand, reading } from './openingActors';
// issue 11 (views-tasks)
import {
  API,
  ATTENDANCE_SUMMARY_API,
  DAILY_ATTENDANCE_API,
  floorPlanPropertiesResource,
  floorPlansResource,
  rowSchema,
  type VisitorCredentialBatch,
  type DailyAttendanceQuery,
  type AttendanceSummaryQuery,
  type TimesheetBuild,
} from '../../contract';
import { createResourceFormMachine, type Saved, type SaveInput } from '../../machines/resourceForm';
import { batchUploadMachine, type BatchPreview, type BatchProgress, type BatchResult, type PreviewInput } from '../../machines/batchUpload';
import { ApiError, isNotFound } from '../api/errors';
import { exportEventHistory, streamGet, type ExportFormat } from '../api/stream';
import { listRecordings, openRecording } from './journalRecordings';
import { fileAt } from '../api/files';
import { comsetCardReader, discoverOsdpReaders, osdpReaders, repairCardReader, type OsdpReadersOf } from '../api/osdp';

/** A form's division choices: every division of the client, by name (the form shows them as a tree). */
export const divisionChoices = provided(readingMachine, {
  actors: { read: fromPromise<unknown, void>(() => listDivisions({ size: 1000, sort: [{ field: 'name', dir: 'asc' }] })) },
});
// the answers' types, for the views that show them (they import nothing of endpoints)
export type { AlarmGroupRow, DiscoveredBoard, SpecialDateRow } from '../api/endpointsScreens';

/** A view without anything to read (no division choice, no door rights) reads nothing. */
export const nothingToRead = provided(readingMachine, { actors: { read: fromPromise<unknown, void>(async () => null) } });

/** An extensible resource's form and list (identities): the client's user-defined fields. */
export const userFieldDefsReading = reading(() => listUserFieldDefs());
/** /configure/calendar: the client's special dates. */
export const specialDatesReading = reading(() => listSpecialDates());
/** /configure/controller-hub: every controller with its firmware and last heart-beat. */
export const controllerHubReading = reading(() => controllerHub());
/** /configure/interface/add: the boards the controllers' buses found that are not added yet. */
export const discoveredBoardsReading = reading(() => discoverInterfaces());
/** /configure/division: the client's divisions (the screen draws the tree). */
export const divisionsReading = reading(() => listDivisions({ size: 1000 }));
/** /hardware/controllers/diagnostic/:ip — the controller at that address, its boards and recent faults. */
export const controllerDiagnosticReading = reading((ip: string) => controllerDiagnostic(ip));
/** /configure/access-zone: how many are inside each zone; and who, in one zone. */
export const zoneOccupancyReading = reading(() => zoneOccupancy());
export const zoneOccupantsReading = reading((zoneId: number) => zoneOccupants(zoneId));
/** /configure/alarm-group/:id/…/alarm-zone: the alarm group as a zone. */
export const alarmGroupReading = reading((id: number) => getAlarmGroup(id));

export const threatLevelLogic = provided(threatLevelMachine, {
  actors: {
    read: fromPromise<ThreatRead, ThreatLevelInput>(async ({ input }) => {
      const [current, levels, divisions] = await Promise.all([
        threatCurrent(),
        threatLevelChoices(),
        input.mayControl ? listDivisions({ size: 500 }) : { items: [] },
      ]);
      return { current, levels: levels.items, divisions: divisions.items.map((d) => ({ id: d.id, name: d.name })) };
    }),
    command: fromPromise(({ input }: { input: ThreatRequest }) => setThreatLevel(input.levelId, input.divisionId, input.minutes)),
  },
});

/** The doors screen's threat level panel (door control, 0.4.5.4): the level in force and what the user may set. */
export const threatChoicesLogic = provided(threatLevelMachine, {
  actors: {
    read: fromPromise<ThreatRead, ThreatLevelInput>(async () => {
      const [current, choices] = await Promise.all([threatCurrent(), threatSetChoices()]);
      return { current, levels: choices.levels, divisions: choices.sites, wholeClient: choices.wholeClient };
    }),
    command: fromPromise(({ input }: { input: ThreatRequest }) => setThreatLevel(input.levelId, input.divisionId, input.minutes)),
  },
});

export const doorQrLogic = defined(() =>
  doorQrMachine.provide({
    actors: {
      list: fromPromise(() => listDoorQr()),
      turn: fromPromise(({ input }: { input: DoorQrTurn }) => setDoorQr(input.id, input.on)),
    },
  }),
);

export const doorQrCodeLogic = provided(doorQrCodeMachine, {
  actors: {
    code: fromPromise<DoorQrAnswer, { doorId: number; credential: string }>(async ({ input }) => ({
      code: await doorQrCode(input.doorId, input.credential),
      now: Date.now(),
    })),
  },
});

/** One command at a time (machines/command.ts), by the call that runs it; the command names what it acts on. */
const commands = (run: (command: string) => Promise<unknown>) =>
  provided(commandMachine, { actors: { run: fromPromise(({ input }: { input: { command: string } }) => run(input.command)) } });

/** `<divisionId>`: delete the division; answers its id. */
export const divisionCommands = commands(async (command) => {
  await deleteDivision(Number(command));
  return Number(command);
});
/** `<ip>`: ping the controller; answers the ping. */
export const pingCommands = commands((ip) => pingController(ip));
/** `<zoneId>|<identityId>`: let the identity badge into the zone again. */
export const forgiveCommands = commands((command) => {
  const [zoneId, identityId] = command.split('|').map(Number);
  return forgiveInZone(zoneId, identityId);
});
/** `<groupId>|arm` or `<groupId>|disarm`: arm or disarm the alarm group; answers the group as it is then. */
export const armCommands = commands((command) => {
  const [id, what] = command.split('|');
  return armAlarmGroup(Number(id), what === 'arm');
});
/** `<eventId>`: decide a stored swipe again; answers why it was denied. */
export const explainCommands = commands((id) => explainEvent(Number(id)));
/**
 * The doors screen: `<doorId>:<command>:[force]` sends a door command (answers its event); `lockdown:on|off:<divisionId|all>`
 * locks the doors down or releases them (answers how many doors).
 */
export const doorCommands = commands((command) => {
  if (command.startsWith('lockdown:')) {
    const [, what, where] = command.split(':');
    return lockdown(what === 'on', where && where !== 'all' ? Number(where) : null);
  }
  const [id, door, force] = command.split(':') as [string, DoorCommand, string];
  return doorCommand(Number(id), door, force === 'force');
});

// ---------- issue 11 (no useTask in views): the audit, dashboard, monitor, manage and visitor screens ----------
// Their reads and commands, so the views only create the actors and read them. Added as one block (views-tasks).

/** /monitor/replay: the client's recorded sessions (auditors with 0.8.2.0), newest activity first. */
export const recordingsReading = reading(() => listRecordings());
/** `<recordingId>`: open a recorded session; answers its journal as NDJSON text for the replay viewer. */
export const recordingOpenings = commands((id) => openRecording(Number(id)));

/** /monitor/floor-plan: the client's plans by name (nothing without a client), and one plan with its pinned doors. */
const floorPlanCalls = () => resourceApi(floorPlansResource.api, rowSchema(floorPlansResource));
export const floorPlansReading = reading((input: { clientId: number | null } | null) =>
  input?.clientId == null
    ? Promise.resolve(null)
    : floorPlanCalls()
        .list({ size: 200, sort: [{ field: 'name', dir: 'asc' }] })
        .then((p) => p.items),
);
export const floorPlanReading = reading((id: number | null) => (id ? floorPlanCalls().get(id) : Promise.resolve(null)));
/** Floor plan properties [0.7.3.1]: the plan the monitor opens with, names on pins, pin size (the monitor's code reads them). */
export const floorPlanPropertiesReading = reading((clientId: number | null) =>
  clientId === null ? Promise.resolve(null) : resourceApi(floorPlanPropertiesResource.api, rowSchema(floorPlanPropertiesResource)).getOne(),
);
/** `<doorId>|<command>|<name>`: a door command from the floor plan; answers its event. */
export const floorPlanDoorCommands = commands((command) => {
  const [id, door] = command.split('|') as [string, DoorCommand];
  return doorCommand(Number(id), door);
});

/** Server → Backup and restore: the stored backups, and what its buttons do (one at a time). */
export const backupsReading = reading(() => listBackups());
/** The backups' history (taken, deleted, uploaded, restored; the auto-backup settings changed), newest first. */
export const platformHistoryReading = reading(() => platformHistory());
/** A restore under way, until the server is back and the list says how it went. */
export const restoreLogic = defined(() => restoreMachine.provide({ actors: { list: fromPromise(() => listBackups()) } }));
/** `take` | `upload` (input: the file) | `download|<id>` | `delete|<id>` | `restore|<id>`; each answers what the server did. */
export const backupCommands = provided(commandMachine, {
  actors: {
    run: fromPromise<unknown, { command: string; input?: unknown }>(async ({ input }) => {
      const [verb, id = ''] = input.command.split('|');
      if (verb === 'take') return takeBackup();
      if (verb === 'upload') return uploadBackup(input.input as Blob);
      if (verb === 'download') return backupFile(id);
      if (verb === 'delete') return deleteBackup(id);
      if (verb === 'restore') return restoreBackup(id);
      throw new Error(`Unknown backup command ${verb}`);
    }),
  },
});
/** `<jobId>|<runId>`: one report's CSV (answers the Blob; the view saves it). */
export const reportJobDownloads = commands((command) => {
  const [job, run] = command.split('|').map(Number);
  return reportJobFile(job, run);
});
/** `<jobId>|<runId>`: Retry of a failed run (made again for its period and delivered). */
export const reportJobRetries = commands((command) => {
  const [job, run] = command.split('|').map(Number);
  return retryReportJobRun(job, run);
});
export type { ReportJobRun, ReportJobRuns } from '../api/endpointsScreens';
/** A scheduled report job's history, newest first, and whether the server mails (the job's page). */
export const reportJobRunsReading = reading((id: number | null) => (id === null ? Promise.resolve(null) : listReportJobRuns(id)));
export type { PrivilegeHoldersRow, Tick } from '../api/endpointsScreens';
/** /manage/privileges: every code with the client's roles holding it; the client's divisions by id. */
export const privilegeHoldersReading = reading(() => listPrivilegeHolders());
/** /manage/roles/assign-privileges/:id: the role's name and its ticked codes. */
export const roleNameReading = reading((id: number) => roleName(id));
export const roleTicksReading = reading((id: number) => roleTicks(id));
/**
 * `<roleId>|<ticks as JSON>`: save the role's whole set of ticks; answers the role. A refusal names the first field
 * the server named (`code: …`).
 */
export const assignPrivilegeCommands = commands(async (command) => {
  const bar = command.indexOf('|');
  try {
    return await assignPrivileges(Number(command.slice(0, bar)), JSON.parse(command.slice(bar + 1)) as Tick[]);
  } catch (e) {
    // a refusal without violations goes on whole, its sentence (key and values) with it: the view says it by its key
    if (!(e instanceof ApiError) || !e.violations[0]) throw e;
    throw new Error(`${e.violations[0].field}: ${e.violations[0].message}`, { cause: e });
  }
});

export type { OperatorSettingsValues } from '../api/endpointsScreens';
/** /manage/operator-settings: the client's settings as one form (loaded, saved, refused values back on their fields). */
export const operatorSettingsForm = createResourceFormMachine({
  load: fromPromise<unknown, { id: number }>(() => getOperatorSettings()),
  save: fromPromise<Saved, SaveInput>(async ({ input }) => {
    await saveOperatorSettings(input.values as OperatorSettingsValues);
    return { id: 1 };
  }),
});

/** /manage/identities/batch-upload: the batch templates to choose from. */
export const batchTemplatesReading = reading(() => optionsOf(API.batchTemplates, {}));
/** The batch upload's preview and streamed import (machines/batchUpload.ts). */
export const batchUploadLogic = provided(batchUploadMachine, {
  actors: {
    preview: fromPromise<BatchPreview, PreviewInput>(({ input }) => previewBatchUpload(input.templateId, input.file, input.fileName)),
    import: fromPromise<BatchResult, { uploadId: number }>(async ({ input, self, signal }) => {
      let result: BatchResult | null = null;
      const out = await streamGet(batchImportPath(input.uploadId), {
        signal,
        onEvent: (e) => {
          if (e.event === 'progress') self._parent?.send({ type: 'batch.progress', progress: JSON.parse(e.data) as BatchProgress });
          else if (e.event === 'end') result = JSON.parse(e.data) as BatchResult;
        },
      });
      if (out.status === 'ended' && result) return result;
      throw out.error ?? new Error('The import was interrupted. Run it again: rows already imported are matched, not repeated.');
    }),
  },
});
/** `<uploadId>`: the whole error report of a previewed upload (every problem with its key; the screen writes the file). */
export const batchReportCommands = commands((id) => batchErrorReport(Number(id)));

/** /visitor/details/:id: the visitor, or `{ notFound: true }` for one of another client or removed (an expected answer). */
export const visitorReading = reading(async (id: number | null) => {
  if (!id) return null;
  try {
    return await getVisitor(id);
  } catch (e) {
    if (isNotFound(e)) return { notFound: true };
    throw e;
  }
});
/** `<visitorId>|sign-in` or `<visitorId>|sign-out`: move the visitor; `<visitorId>|watchlist-admit|<reason>` or
 *  `…|watchlist-refuse|<reason>`: decide a watchlist match (issue 50). Answers the visitor as they are then. */
export const visitorMoves = commands((command) => {
  const [id, move, ...reason] = command.split('|');
  if (move === 'watchlist-admit' || move === 'watchlist-refuse') return moveVisitor(Number(id), move, reason.join('|'));
  return moveVisitor(Number(id), move === 'sign-out' ? 'sign-out' : 'sign-in');
});

/** /manage/service-accounts: `revoke:<id>` or `rotate:<id>` the account's API key; answers the account (with the new key). */
/** Operators (issue 27): `disable:<id>`, `enable:<id>`, `remove:<id>` (leave this client). */
export const operatorCommands = commands((command) => {
  const [what, id] = command.split(':');
  return operatorAction(Number(id), what as 'disable' | 'enable' | 'remove');
});
export const apiKeyCommands = commands((command) => {
  const [what, id] = command.split(':');
  return what === 'revoke' ? revokeApiKey(Number(id)) : rotateApiKey(Number(id));
});
/** /manage/web-hooks/:id/history: `{"hookId":…,"page":…,"outcome":…,"eventType":…}` reads one page of delivery attempts. */
export const webHookAttemptsReads = commands((command) => {
  const f = JSON.parse(command) as { hookId: number; page: number; outcome: string; eventType: string };
  return webHookAttempts(f.hookId, {
    page: f.page,
    size: 50,
    outcome: (f.outcome || undefined) as 'ok' | 'failed' | undefined,
    eventType: f.eventType || undefined,
  });
});
/** `<hookId>|<attemptId>`: queue the delivery again. */
export const webHookRedeliveries = commands((command) => {
  const [hookId, attempt] = command.split('|').map(Number);
  return redeliverWebHook(hookId, attempt);
});

/** What a preview answers: who gains and loses, or the form's values the server refused (field and why). */
export type AccessPreviewAnswer = { answer: AccessPreview } | { refused: string[] };
export type AccessPreviewInput = { resource: string; id: number | null; values: Record<string, unknown> } | null;
/**
 * "Preview access" on a form (src/resources/WhatIf.tsx), a reading actor: who would gain and lose which doors if the
 * values were saved. Read again (`read.restart`) with the form's values as they are; nothing until asked.
 */
export const accessPreviewLogic = reading(async (input: AccessPreviewInput): Promise<AccessPreviewAnswer | null> => {
  if (!input) return null;
  try {
    return { answer: await previewAccessChange(input.resource, input.id, input.values) };
  } catch (e) {
    if (e instanceof ApiError && e.violations.length) return { refused: e.violations.map((v) => `${v.field} ${v.message}`) };
    throw e;
  }
});
export type { AccessPreview } from '../api/endpointsScreens';

/** The events screen's export (machines/download.ts): its stored history with the screen's filter, streamed with progress. */
export type EventExportInput = { filters: Record<string, string>; format: ExportFormat };
export const eventExportLogic = provided(downloadMachine, {
  actors: {
    fetch: fromCallback<DownloadEvent, EventExportInput>(({ input, sendBack }) => {
      const ac = new AbortController();
      void exportEventHistory(input.filters, input.format, {
        signal: ac.signal,
        onProgress: (p) => sendBack({ type: 'download.progress', done: p.done, total: p.total }),
      }).then((out) => {
        if (ac.signal.aborted) return; // cancelled from the screen: the machine has left already
        if (out.status === 'ended') sendBack({ type: 'download.finished', file: { blob: out.blob, filename: out.filename } });
        else if (out.status === 'failed') sendBack({ type: 'download.finished', error: errorSaid(out.error, 'The export failed') });
        else sendBack({ type: 'download.finished', cancelled: true });
      });
      return () => ac.abort();
    }),
  },
});

/** One command of a form whose refusal is an answer: its result under `key`, or the field violations of a 400 (the
 *  form shows them on its fields; any other failure is the command's error). */

/** Batch add visitor credentials: what was added, or the violations of a refused batch. */
export const visitorCredentialBatchCommands = formCommand<VisitorCredentialBatch>('added', addVisitorCredentials);

/** Daily Attendance [3.2.0]: the teams to filter by, and the day asked for (nothing while no day is chosen). */
export const teamChoices = reading(() => listTeamChoices());
export const dailyAttendanceReading = reading((q: DailyAttendanceQuery | null) => (q ? getDailyAttendance(q) : Promise.resolve(null)));
/** Attendance Summaries [3.6.0]: the period asked for (nothing while it is not a valid one). */
export const attendanceSummaryReading = reading((q: AttendanceSummaryQuery | null) => (q ? getAttendanceSummary(q) : Promise.resolve(null)));
/** Build Timesheet [3.3]: what was written, or the violations of a refused period. */
export const timesheetBuildCommands = formCommand<TimesheetBuild>('built', buildTimesheet);
/** The activity report (issue 31): the client's audit chain verified now; and its verifiable export (answers the file). */
export const auditChainReading = reading(() => auditChainVerify());
export const auditChainExports = commands(() => auditChainExport());
export type { AuditChainReport } from '../api/endpointsScreens';
/** The alarm handling report (issue 31): the period asked for (nothing while it is not a valid one); and its file,
 *  command `<csv|xlsx>|<from>|<to>` (answers the file). */
export const alarmHandlingReading = reading((q: { from: string; to: string } | null) => (q ? getAlarmHandling(q) : Promise.resolve(null)));
export const alarmHandlingExports = commands((command) => {
  const [format, from, to] = command.split('|');
  return alarmHandlingFile({ format: format === 'xlsx' ? 'xlsx' : 'csv', from, to });
});
export type { AlarmHandlingReport } from '../api/endpointsScreens';
/** The attendance screens' files (issue 29), the server's tabular writer: command `daily|<csv|xlsx>|<date>|<teamId>`
 *  or `summary|<csv|xlsx>|<from>|<to>|<teamId>` (answers the file). */
export const attendanceExports = commands((command) => {
  const [what, format, a, b, c] = command.split('|');
  const q = what === 'daily' ? { date: a, ...(b ? { teamId: b } : {}) } : { from: a, to: b, ...(c ? { teamId: c } : {}) };
  return fileAt(
    `${what === 'daily' ? DAILY_ATTENDANCE_API : ATTENDANCE_SUMMARY_API}?${new URLSearchParams({ ...q, format: format === 'xlsx' ? 'xlsx' : 'csv' })}`,
  );
});
/** Issue 50: the acknowledged handovers, newest first (/report/handovers). */
export const handoverHistoryReading = reading(() => listHandovers());

// ---------- OSDP readers (issue 46): the Hardware screens' panel (src/resources/OsdpReadersPanel.tsx) ----------
/** A controller's OSDP readers (`{ controllerId }`) or a card reader's one (`{ cardReaderId }`), as its edge last reported them. */
export const osdpReadersReading = reading((of: OsdpReadersOf) => osdpReaders(of));
/** `<cardReaderId>`: re-pair its OSDP reader (audited); answers what the edge said it did. */
export const osdpRepairCommands = commands((id) => repairCardReader(Number(id)));
/** `{"id":<cardReaderId>,"address":N,"baud":N}`: move its OSDP reader (COMSET, audited); answers where it is now. */
export const osdpComsetCommands = commands((json) => {
  const { id, address, baud } = JSON.parse(json) as { id: number; address: number; baud: number };
  return comsetCardReader(id, { address, baud });
});
/** Hardware → Interface → pre-add: the OSDP readers the connected edges found on their buses, not configured yet. */
export const osdpFoundReading = reading((of?: { scope: OsdpScanScope }) => discoverOsdpReaders(of?.scope));
