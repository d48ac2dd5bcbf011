// The dashboard's charts (issue 10), drawn with visx (src/ui/BarChart.tsx). Only the dashboard imports this file,
// lazily, so the charts' code is a chunk of its own that no other screen loads and the opening screen's start never
// fetches (scripts/startChunks.ts START_LATER).
import { formatInZone, type HourCount } from '../../../contract';
import { getDisplayZone } from '../../ui/time';
import { BarChart } from '../../ui/BarChart';
import { tx } from '../../i18n';

const PRIORITY_COLOUR = (p: number) => (p <= 1 ? '#cd4246' : p <= 3 ? '#c87619' : '#738091');
/** The hour in the session's zone (issue 10), like every other time on screen. */
const hourLabel = (iso: string) => formatInZone(iso, getDisplayZone(), 'HH:mm');

/** Open alarms per priority, P1 first, coloured like the alarms screen's tags. */
export function PriorityChart({ data, name }: { data: Array<{ priority: number; count: number }>; name: string }) {
  const rows = data.map((d) => ({ key: String(d.priority), label: `P${d.priority}`, values: [d.count], colour: PRIORITY_COLOUR(d.priority) }));
  return <BarChart name={name} series={[{ name: tx('Open alarms'), colour: PRIORITY_COLOUR(5) }]} rows={rows} height={180} testId="chart-bars" />;
}

/** A 24-hour series, one bar per hour, the current hour last; the hours labelled every six. */
export function HourChart({ data, colour, what, name }: { data: HourCount[]; colour: string; what: string; name: string }) {
  const rows = data.map((d) => ({ key: d.hour, label: hourLabel(d.hour), values: [d.count] }));
  return <BarChart name={name} series={[{ name: what, colour }]} rows={rows} height={180} labelEvery={6} testId="chart-bars" />;
}

/** Today's visits: expected, on site, left. */
export function VisitorsChart({ expected, onSite, left, name }: { expected: number; onSite: number; left: number; name: string }) {
  const rows = [
    { key: 'expected', label: tx('Expected'), values: [expected], colour: '#2d72d2' },
    { key: 'on-site', label: tx('On site'), values: [onSite], colour: '#238551' },
    { key: 'left', label: tx('Left'), values: [left], colour: '#8f99a8' },
  ];
  return <BarChart name={name} series={[{ name: tx('Visitors today'), colour: '#2d72d2' }]} rows={rows} height={120} horizontal testId="chart-bars" />;
}
