// The dashboard's charts (issue 10), drawn with recharts. Only the dashboard imports this file, lazily, so the
// library is a chunk of its own that no other screen loads.
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatInZone, type HourCount } from '../../../contract';
import { getDisplayZone } from '../../ui/time';
import { tx } from '../../i18n';

const PRIORITY_COLOUR = (p: number) => (p <= 1 ? '#cd4246' : p <= 3 ? '#c87619' : '#738091');
/** The hour in the session's zone (issue 10), like every other time on screen. */
const hourLabel = (iso: string) => formatInZone(iso, getDisplayZone(), 'HH:mm');

/** Open alarms per priority, P1 first, coloured like the alarms screen's tags. */
export function PriorityChart({ data }: { data: Array<{ priority: number; count: number }> }) {
  const rows = data.map((d) => ({ ...d, label: `P${d.priority}` }));
  return (
    <ResponsiveContainer width="100%" height={180}>
      <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -20 }} accessibilityLayer>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" tickLine={false} />
        <YAxis allowDecimals={false} tickLine={false} />
        <Tooltip formatter={(v) => [v, 'open']} cursor={{ fill: 'rgba(143,153,168,.15)' }} />
        <Bar dataKey="count" isAnimationActive={false}>
          {rows.map((r) => (
            <Cell key={r.priority} fill={PRIORITY_COLOUR(r.priority)} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}

/** A 24-hour series, one bar per hour, the current hour last. */
export function HourChart({ data, colour, what }: { data: HourCount[]; colour: string; what: string }) {
  const rows = data.map((d) => ({ ...d, label: hourLabel(d.hour) }));
  return (
    <ResponsiveContainer width="100%" height={180}>
      <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" tickLine={false} interval={5} minTickGap={8} />
        <YAxis allowDecimals={false} tickLine={false} />
        <Tooltip formatter={(v) => [v, what]} cursor={{ fill: 'rgba(143,153,168,.15)' }} />
        <Bar dataKey="count" fill={colour} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Today's visits: expected, on site, left. */
export function VisitorsChart({ expected, onSite, left }: { expected: number; onSite: number; left: number }) {
  const rows = [
    { label: tx('Expected'), count: expected, fill: '#2d72d2' },
    { label: tx('On site'), count: onSite, fill: '#238551' },
    { label: tx('Left'), count: left, fill: '#8f99a8' },
  ];
  return (
    <ResponsiveContainer width="100%" height={120}>
      <BarChart data={rows} layout="vertical" margin={{ top: 0, right: 16, bottom: 0, left: 8 }} accessibilityLayer>
        <XAxis type="number" allowDecimals={false} hide />
        <YAxis type="category" dataKey="label" width={70} tickLine={false} axisLine={false} />
        <Tooltip cursor={{ fill: 'rgba(143,153,168,.15)' }} />
        <Bar dataKey="count" isAnimationActive={false}>
          {rows.map((r) => (
            <Cell key={r.label} fill={r.fill} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
