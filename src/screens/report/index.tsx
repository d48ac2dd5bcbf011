import { tx, useLocale } from '../../i18n';
import { activityReport, uiErrors } from '../../resources';
import { ListScreen } from '../../ui/ListScreen';

export const ActivityReportScreen = () => (
  <ListScreen testId="activity-report" title={tx('Activity report')} icon="history" resource={activityReport}
    description={tx('Every change an operator made in this client: who, when, what, before and after.')} />
);

export const UiErrorsScreen = () => (
  <ListScreen testId="ui-errors" title={tx('UI error log')} icon="error" resource={uiErrors}
    description={tx('Errors the console caught in operators\' browsers, newest first.')} />
);

export { EventReportScreen } from './EventReportScreen';
