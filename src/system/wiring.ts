// What the hooks room is given of the system (issue 28): the shell calls `wireConsole(consoleWiring)` once, before
// its first render (src/app/App.tsx), and the hooks (src/hooks) reach the system only through it, so views never
// depend on the wiring. The wiring's types are registered with the hooks room here, the same way round.
import type * as logic from './logic';
import type { Notice } from './notices';
import { notices$, notify } from './notices';
import { alarmSound } from './alarmNotices';
import { closeViewActor, getJournal, getSystem, openViewActor, prepareSystem, reportUiError } from './browser';
import { loadScreenLogic, viewLogic, viewLogicReady } from './logic';
import { openingScreenRead, openingScreenShown } from './openingScreen';

export const consoleWiring = {
  /** Builds the system's machines (issue 48: the console's start does so in a task of its own, before getSystem). */
  prepareSystem,
  getSystem,
  openViewActor,
  closeViewActor,
  viewLogic,
  /** Null when a label's logic is in; else it loads (a catalogue resource's list or form: issue 48) and the view waits. */
  viewLogicReady,
  /** The screens' logic, asked for with a screen's chunk (src/app/screens.tsx). */
  loadScreenLogic,
  /** A notice for the toasts, and the toasts' stream of them. */
  notify: (notice: Notice) => notify(notice),
  notices$,
  /** The alarm sound's state and its switch (the header's sound control). */
  alarmSound,
  /** A render that broke, sent to the UI error log (§8). */
  reportUiError,
  /** This console's journal so far, one event a line (the replay screen's export). */
  journalNdjson: (): string => getJournal().toNdjson(),
  /** The shell drew the console's opening screen (issue 48: the live connection's libraries may load). */
  openingScreenShown,
  /** Settles once the opening screen has what it reads first (what is not needed to draw it loads after). */
  openingScreenRead,
};

declare module '../hooks/wiring' {
  interface Register {
    wiring: typeof consoleWiring;
    logics: logic.ViewLogics;
    resources: logic.ResourceLogics;
    answers: {
      AccessPreview: logic.AccessPreview;
      AccessPreviewAnswer: logic.AccessPreviewAnswer;
      AlarmGroupRow: logic.AlarmGroupRow;
      AuditChainReport: logic.AuditChainReport;
      DiscoveredBoard: logic.DiscoveredBoard;
      EventExportInput: logic.EventExportInput;
      ExportFormat: logic.ExportFormat;
      ExportInput: logic.ExportInput;
      OperatorSettingsValues: logic.OperatorSettingsValues;
      PrivilegeHoldersRow: logic.PrivilegeHoldersRow;
      ReportJobRun: logic.ReportJobRun;
      ReportJobRuns: logic.ReportJobRuns;
      RowActionInput: logic.RowActionInput;
      ServerFile: logic.ServerFile;
      SpecialDateRow: logic.SpecialDateRow;
      Tick: logic.Tick;
    };
  }
}
