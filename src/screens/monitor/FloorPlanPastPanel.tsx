// What else stood at the floor plan's past moment (issue 50): the alarms open then, the threat level in force and who
// was in which access zone (as anti-passback had it). A part the user may not see live is not shown here either.
import { Card, HTMLTable, Tag } from '@blueprintjs/core';
import type { FloorPlanAt } from '../../../contract/floorPlanHistory';
import { sayEvent, tx } from '../../i18n';
import { useTime } from '../../ui/time';

export function FloorPlanPastPanel({ past, doorName }: { past: FloorPlanAt; doorName: (doorId: number) => string }) {
  const time = useTime();
  return (
    <div className="gh-plan-past" data-testid="floor-plan-past-panel">
      {past.threatShown && (
        <Card compact className="gh-plan-past__card">
          <h3 className="bp6-heading">{tx('Threat level')}</h3>
          {past.threat ? (
            <p data-testid="floor-plan-past-threat">
              <Tag intent="danger" icon="warning-sign">
                {past.threat.level}
              </Tag>{' '}
              {past.threat.divisionName ? tx('in {site}', { site: past.threat.divisionName }) : tx('for the whole client')} ·{' '}
              {tx('set {at}', { at: time.dateTime(past.threat.setAt) })}
            </p>
          ) : (
            <p className="bp6-text-muted" data-testid="floor-plan-past-threat">
              {tx('No threat level was in force.')}
            </p>
          )}
        </Card>
      )}
      {past.alarms && (
        <Card compact className="gh-plan-past__card">
          <h3 className="bp6-heading">{tx('Open alarms then ({n})', { n: past.alarms.length })}</h3>
          {past.alarms.length === 0 ? (
            <p className="bp6-text-muted">{tx('No alarm was open.')}</p>
          ) : (
            <ul className="gh-plan-past__list" data-testid="floor-plan-past-alarms">
              {past.alarms.map((a) => (
                <li key={a.eventId}>
                  <Tag minimal intent={a.state === 'raised' ? 'danger' : 'warning'}>
                    {a.state === 'raised' ? tx('Not acknowledged') : tx('Acknowledged')}
                  </Tag>{' '}
                  {a.doorId !== null ? `${doorName(a.doorId)}: ` : ''}
                  {sayEvent(a)} <span className="bp6-text-muted">· {time.dateTime(a.raisedAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      )}
      {past.zones && (
        <Card compact className="gh-plan-past__card">
          <h3 className="bp6-heading">{tx('Who was in which zone')}</h3>
          {past.zones.length === 0 ? (
            <p className="bp6-text-muted">{tx('Nobody was inside an access zone.')}</p>
          ) : (
            <HTMLTable compact className="gh-table-full" data-testid="floor-plan-past-zones">
              <thead>
                <tr>
                  <th>{tx('Zone')}</th>
                  <th>{tx('Inside')}</th>
                </tr>
              </thead>
              <tbody>
                {past.zones.map((z) => (
                  <tr key={z.zoneId}>
                    <td>
                      {z.name}{' '}
                      <Tag minimal round>
                        {z.people.length}
                      </Tag>
                    </td>
                    <td>{z.people.map((p) => p.name).join(', ')}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
        </Card>
      )}
    </div>
  );
}
