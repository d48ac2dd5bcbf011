import { routeTitle, tx } from '../../i18n';
import { useNavigate } from 'react-router-dom';
import { Button, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { hasPrivilege, type Client } from '../../../contract';
import { selectClientId, selectHeldPrivileges, selectIsBusy, selectUser } from '../../../machines/session.selectors';
import { useRouteInfo } from '../../app/RouteContext';
import { useSystemActor } from '../../hooks/useSystemActor';
import { ResourceForm, ResourceList, clients, identities } from '../../resources';
import { ListScreen } from '../../ui/ListScreen';
import { PageHeader } from '../../ui/PageHeader';

export function ClientsScreen() {
  const session = useSystemActor('session');
  const user = useSelector(session, selectUser);
  const clientId = useSelector(session, selectClientId);
  const busy = useSelector(session, selectIsBusy);
  const navigate = useNavigate();
  const multi = !!user?.multiTenancyEnabled;
  return (
    <div className="gh-page" data-testid="clients">
      {/* the guided tour keeps clear of this hint (issue 10) */}
      <div data-tour-avoid={multi && clientId === null ? '' : undefined} data-testid="clients-hint">
        <PageHeader
          title={tx('Clients')}
          icon="office"
          description={
            multi
              ? clientId === null
                ? tx('Select the client to work in. The dashboard and most screens need one.')
                : tx('Tenants of this installation. Select one to work in it.')
              : tx('Tenants of this installation.')
          }
        />
      </div>
      <ResourceList<Client>
        resource={clients}
        rowTag={(c) =>
          c.id === clientId ? (
            <Tag intent="success" minimal round icon="tick">
              {tx('Current')}
            </Tag>
          ) : !c.active ? (
            <Tag minimal round>
              {tx('Inactive')}
            </Tag>
          ) : null
        }
        rowActions={
          multi
            ? (c) => (
                <Button
                  size="small"
                  variant={c.id === clientId ? 'minimal' : 'outlined'}
                  intent="primary"
                  disabled={busy || c.id === clientId || !c.active}
                  onClick={() => session.send({ type: 'session.selectClient', clientId: c.id })}
                >
                  {tx('Select')}
                </Button>
              )
            : undefined
        }
        toolbar={
          multi && clientId !== null ? (
            <Button icon="dashboard" variant="minimal" onClick={() => navigate('/dashboard')}>
              {tx('Dashboard')}
            </Button>
          ) : undefined
        }
      />
    </div>
  );
}

export function ClientFormScreen() {
  const { route } = useRouteInfo();
  return (
    <div className="gh-page-wrap">
      <PageHeader title={routeTitle(route)} icon="office" />
      <ResourceForm resource={clients} />
    </div>
  );
}

export function IdentitiesScreen() {
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const navigate = useNavigate();
  // a spreadsheet of many identities goes through the batch upload, for whoever may (0.3.1.9)
  const batch = hasPrivilege(held, [BATCH_UPLOAD]) ? (
    <Button icon="upload" variant="minimal" onClick={() => navigate('/manage/identities/batch-upload')} data-testid="identities-batch-upload">
      {tx('Batch upload')}
    </Button>
  ) : undefined;
  return (
    <ListScreen
      testId="identities"
      title={tx('Identities')}
      icon="people"
      resource={identities}
      toolbar={batch}
      description={tx('People who hold credentials: staff, contractors and residents.')}
    />
  );
}
const BATCH_UPLOAD = '0.3.1.9';

export function IdentityFormScreen() {
  const { route } = useRouteInfo();
  return (
    <div className="gh-page-wrap">
      <PageHeader title={routeTitle(route)} icon="people" />
      <ResourceForm resource={identities} />
    </div>
  );
}
export { OperatorsScreen } from './operators';
export { ServiceAccountsScreen, ServiceAccountFormScreen, WebHooksScreen, WebHookFormScreen, WebHookHistoryScreen } from './integrations';
