// The shapes of what the views' actors answer, for the views that show them: types only, so a view can name an
// answer without importing the calls that fetch it (src/api is the system's, never a view's).
export type {
  AccessPreview, AccessPreviewAnswer, AlarmGroupRow, AuditChainReport, DiscoveredBoard, EventExportInput, ExportFormat, ExportInput,
  OperatorSettingsValues, PrivilegeHoldersRow, ReportJobRun, ReportJobRuns, RowActionInput, ServerFile, SpecialDateRow, Tick,
} from '../system/logic';
