import { ResourceList, activityReport, uiErrors } from '../../resources';
import { PageHeader } from '../../ui/PageHeader';

export function ActivityReportScreen() {
  return (
    <div className="gh-page" data-testid="activity-report">
      <PageHeader title="Activity report" icon="history" description="Every change an operator made in this client: who, when, what, before and after." />
      <ResourceList resource={activityReport} />
    </div>
  );
}

export function UiErrorsScreen() {
  return (
    <div className="gh-page" data-testid="ui-errors">
      <PageHeader title="UI error log" icon="error" description="Errors the console caught in operators' browsers, newest first." />
      <ResourceList resource={uiErrors} />
    </div>
  );
}
