// The one export control of a list or report (issue 29): CSV and XLSX side by side, both files of the server's one
// tabular writer (server/http/tabular.ts: byte-order mark, unique headers, times in ISO 8601 with the zone named).
import { Button } from '@blueprintjs/core';
import { tx } from '../i18n';

export type ExportFormat = 'csv' | 'xlsx';

export function ExportButtons({
  onExport,
  disabled,
  loading,
  testId,
  csvText,
}: {
  onExport: (format: ExportFormat) => void;
  disabled?: boolean;
  loading?: boolean;
  testId: string;
  csvText?: string;
}) {
  return (
    <>
      <Button
        icon="export"
        variant="outlined"
        text={csvText ?? tx('Export CSV')}
        disabled={disabled}
        loading={loading}
        onClick={() => onExport('csv')}
        data-testid={testId}
      />
      <Button
        icon="th-derived"
        variant="outlined"
        text={tx('Export XLSX')}
        disabled={disabled || loading}
        onClick={() => onExport('xlsx')}
        data-testid={`${testId}-xlsx`}
      />
    </>
  );
}
