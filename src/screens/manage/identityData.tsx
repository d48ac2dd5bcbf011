// Screens of the identity-data part of the Manage section (issue 11): user-defined fields, identity batch
// templates and licenses — each the generic catalogue list and form under a page header.
import { useRouteInfo } from '../../app/RouteContext';
import { ResourceForm, batchTemplates, licenses, userFields } from '../../resources';
import { ListScreen } from '../../ui/ListScreen';
import { PageHeader } from '../../ui/PageHeader';

export const UserFieldsScreen = () => (
  <ListScreen testId="user-fields" title="User-defined fields" icon="th-list" resource={userFields}
    description="Extra fields on every identity of this client: text, number, date or a choice, required or not." />
);
export function UserFieldFormScreen() {
  const { route } = useRouteInfo();
  return (<div className="gh-page-wrap"><PageHeader title={route.title} icon="th-list" /><ResourceForm resource={userFields} /></div>);
}

export const BatchTemplatesScreen = () => (
  <ListScreen testId="batch-templates" title="Batch templates" icon="th" resource={batchTemplates}
    description="Which spreadsheet column fills which identity field, for uploading identities in bulk." />
);
export function BatchTemplateFormScreen() {
  const { route } = useRouteInfo();
  return (<div className="gh-page-wrap"><PageHeader title={route.title} icon="th" /><ResourceForm resource={batchTemplates} /></div>);
}

export const LicensesScreen = () => (
  <ListScreen testId="licenses" title="Licenses" icon="key" resource={licenses}
    description="Licensed modules and seats, with what is in use now. Edit a license to apply a new key." />
);
export function LicenseFormScreen() {
  const { route } = useRouteInfo();
  return (<div className="gh-page-wrap"><PageHeader title={route.title} icon="key" /><ResourceForm resource={licenses} /></div>);
}
