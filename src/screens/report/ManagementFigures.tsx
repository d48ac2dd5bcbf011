// The alarm-management figures of ISA-18.2 on the alarm handling report (issue 50; server/alarms/figures.ts): alarms
// per operator-hour, the share of 10-minute windows in flood, stale alarms, shelvings and escalations as cards; the
// top 10 sources and the chattering sources as two small tables (they scroll in their own box at 390 px).
import { Card, H5, HTMLTable } from '@blueprintjs/core';
import { ALARM_CHATTER_COUNT, ALARM_FLOOD_COUNT, ALARM_STALE_HOURS, type AlarmManagementFigures } from '../../../contract/alarmManagement';
import { tx, useLocale } from '../../i18n';
import { TableScroll } from '../../ui/TableScroll';

export function ManagementFigures({ m }: { m: AlarmManagementFigures }) {
  const locale = useLocale();
  const n = (v: number, digits = 0) => new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(v);
  const cards = [
    {
      id: 'per-hour',
      title: tx('Alarms per operator-hour'),
      value: n(m.perOperatorHour, 2),
      note: tx('ISA-18.2 aims at 6 or fewer; 12 is the most manageable.'),
    },
    {
      id: 'flood',
      title: tx('Time in flood'),
      value: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(m.floodShare),
      note: tx('{flood} of {windows} 10-minute windows had more than {count} alarms', {
        flood: n(m.floodWindows),
        windows: n(m.windows),
        count: ALARM_FLOOD_COUNT,
      }),
    },
    { id: 'stale', title: tx('Stale alarms'), value: n(m.stale), note: tx('Still open {hours} h after raising', { hours: ALARM_STALE_HOURS }) },
    { id: 'shelvings', title: tx('Shelvings'), value: n(m.shelvings), note: tx('Alarm sources shelved in the period') },
    { id: 'escalations', title: tx('Escalations'), value: n(m.escalations), note: tx('Escalation steps taken in the period') },
  ];
  return (
    <section data-testid="alarm-management-figures" style={{ marginTop: 16 }}>
      <H5>{tx('Alarm management (ISA-18.2)')}</H5>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 8, marginBottom: 8 }}>
        {cards.map((c) => (
          <Card key={c.id} compact data-testid={`alarm-management-${c.id}`}>
            <div className="bp6-text-muted bp6-text-small">{c.title}</div>
            <div style={{ fontSize: 22, fontWeight: 600 }}>{c.value}</div>
            <div className="bp6-text-muted bp6-text-small">{c.note}</div>
          </Card>
        ))}
      </div>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: 8 }}>
        <Card compact>
          <div className="bp6-text-muted bp6-text-small">{tx('Top 10 sources')}</div>
          <TableScroll label={tx('Top 10 sources')}>
            <HTMLTable compact striped data-testid="alarm-management-top">
              <thead>
                <tr>
                  <th>{tx('Source')}</th>
                  <th>{tx('Alarms')}</th>
                </tr>
              </thead>
              <tbody>
                {m.topSources.map((x) => (
                  <tr key={x.pointId}>
                    <td>{x.name ?? x.pointId}</td>
                    <td>{n(x.count)}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </TableScroll>
        </Card>
        <Card compact>
          <div className="bp6-text-muted bp6-text-small">
            {tx('Chattering sources (more than {count} alarms within a minute)', { count: ALARM_CHATTER_COUNT })}
          </div>
          {m.chattering.length === 0 ? (
            <p className="bp6-text-muted" data-testid="alarm-management-no-chatter">
              {tx('None.')}
            </p>
          ) : (
            <TableScroll label={tx('Chattering sources')}>
              <HTMLTable compact striped data-testid="alarm-management-chatter">
                <thead>
                  <tr>
                    <th>{tx('Source')}</th>
                    <th>{tx('Bursts')}</th>
                    <th>{tx('Alarms')}</th>
                  </tr>
                </thead>
                <tbody>
                  {m.chattering.map((x) => (
                    <tr key={x.pointId}>
                      <td>{x.name ?? x.pointId}</td>
                      <td>{n(x.bursts)}</td>
                      <td>{n(x.count)}</td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </TableScroll>
          )}
        </Card>
      </div>
    </section>
  );
}
