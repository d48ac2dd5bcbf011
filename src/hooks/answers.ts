// The shapes of what the views' actors answer, for the views that show them: types only, so a view can name an
// answer without importing the calls that fetch it (src/api is the system's, never a view's). The system registers
// them with the hooks room (src/system/wiring.ts).
import type { Answers } from './wiring';

export type AccessPreview = Answers['AccessPreview'];
export type AccessPreviewAnswer = Answers['AccessPreviewAnswer'];
export type AlarmGroupRow = Answers['AlarmGroupRow'];
export type AuditChainReport = Answers['AuditChainReport'];
export type DiscoveredBoard = Answers['DiscoveredBoard'];
export type EventExportInput = Answers['EventExportInput'];
export type ExportFormat = Answers['ExportFormat'];
export type ExportInput = Answers['ExportInput'];
export type OperatorSettingsValues = Answers['OperatorSettingsValues'];
export type PrivilegeHoldersRow = Answers['PrivilegeHoldersRow'];
export type ReportJobRun = Answers['ReportJobRun'];
export type ReportJobRuns = Answers['ReportJobRuns'];
export type RowActionInput = Answers['RowActionInput'];
export type ServerFile = Answers['ServerFile'];
export type SpecialDateRow = Answers['SpecialDateRow'];
export type Tick = Answers['Tick'];
