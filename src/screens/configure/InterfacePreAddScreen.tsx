// /hardware/interface/pre-add [0.5.1.1] (issue 12): add an interface board — first what the online controllers find
// on their buses and is not added yet (each with Use, which fills the form below with its controller, bus address,
// type, serial number and a name), then the generated add form, which also takes a board typed by hand.
import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Callout, Card, H5, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { INTERFACE_KINDS } from '../../../contract';
import type { DiscoveredBoard } from '../../hooks/answers';
import { useReading } from '../../hooks/useReading';
import { useRouteInfo } from '../../app/RouteContext';
import { routeDescription, routeTitle, tCat, tx, useLocale } from '../../i18n';
import { catKey, resourceBase } from '../../i18n/catalogue';
import { OsdpFoundReaders } from '../../resources/OsdpFoundReaders';
import { ResourceForm } from '../../resources/ResourceForm';
import { consoleResource } from '../../resources/registry';
import { PageHeader } from '../../ui/PageHeader';
import { TableScroll } from '../../ui/TableScroll';

const kindLabel = (kind: string) => tCat(catKey.choice(resourceBase('interfaces'), 'kind', kind), INTERFACE_KINDS.find((k) => k.value === kind)?.label ?? kind);

export function InterfacePreAddScreen() {
  useLocale();
  const { route, path } = useRouteInfo();
  const navigate = useNavigate();
  const found = useReading<{ items: DiscoveredBoard[] }>('discoveredBoardsReading');
  const resource = consoleResource('interfaces');
  // the form reads its starting values from the address once: a chosen board gives it a new address and a new form
  const search = typeof window !== 'undefined' ? window.location.search : '';
  const use = (b: DiscoveredBoard) => {
    const q = new URLSearchParams({
      controllerId: String(b.controllerId),
      busAddress: String(b.busAddress),
      kind: b.kind,
      serialNumber: b.serialNumber,
      name: `${b.controllerName} ${kindLabel(b.kind)} ${b.busAddress}`,
    });
    navigate(`${path}?${q.toString()}`, { replace: true });
  };
  const items = found.output?.items;
  const formKey = useMemo(() => search, [search]);
  return (
    <div className="gh-page-wrap">
      <PageHeader
        title={routeTitle(route)}
        icon={route.icon}
        description={routeDescription(route)}
        actions={
          <Button icon="search" variant="outlined" loading={found.busy} onClick={found.reload} data-testid="discover">
            {tx('Discover again')}
          </Button>
        }
      />
      <div className="gh-page">
        <Card className="gh-mb" data-testid="discovered">
          <H5>{tx('Found on the controllers’ buses')}</H5>
          {found.failed && (
            <Callout intent="danger" icon="error">
              {tx('Discovery failed')}
            </Callout>
          )}
          {!items && !found.failed && <Spinner size={20} />}
          {items && items.length === 0 && (
            <NonIdealState icon="tick-circle" title={tx('Every board found is added')} description={tx('Offline controllers answer no discovery.')} />
          )}
          {items && items.length > 0 && (
            <TableScroll label={tx('Found on the controllers’ buses')}>
              <HTMLTable compact striped className="gh-table-full">
                <thead>
                  <tr>
                    <th>{tx('Controller')}</th>
                    <th>{tx('Bus address')}</th>
                    <th>{tx('Type')}</th>
                    <th>{tx('Serial number')}</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {items.map((b) => (
                    <tr key={`${b.controllerId}:${b.busAddress}`} data-testid="discovered-board" aria-label={`${b.controllerName} ${b.busAddress}`}>
                      <td>{b.controllerName}</td>
                      <td>{b.busAddress}</td>
                      <td>
                        <Tag minimal>{kindLabel(b.kind)}</Tag>
                      </td>
                      <td>{b.serialNumber}</td>
                      <td>
                        <Button size="small" icon="arrow-down" onClick={() => use(b)} data-testid="discovered-use">
                          {tx('Use')}
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </TableScroll>
          )}
        </Card>
        <OsdpFoundReaders />
        <ResourceForm key={formKey} resource={resource} />
      </div>
    </div>
  );
}
