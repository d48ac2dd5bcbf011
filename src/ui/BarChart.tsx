// Bar charts of plain counts (issue 48), drawn with visx: its scales (d3-scale), bars, axes and grid are React
// components that render SVG, so a chart is an ordinary render of a few dozen elements (a few milliseconds), where
// recharts ran its own store and selectors for 80–120 ms of processor time in one task on the dashboard's first chart.
// Only lazily loaded files import this one (scripts/startChunks.ts START_LATER keeps it and visx out of the start).
//
// What a user gets: the value of a bar on hover (a tooltip) and from the keyboard (the chart is one tab stop: the arrow
// keys, Home and End move between bars, their value is shown and said through a polite live region); the chart's name
// is its accessible name; a bar may open what it counts (onOpen, by click or Enter).
import { useId, useState, type KeyboardEvent, type SVGProps } from 'react';
import { AxisBottom, AxisLeft, type TickRendererProps } from '@visx/axis';
import { GridRows } from '@visx/grid';
import { Group } from '@visx/group';
import { ParentSize } from '@visx/responsive';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { TooltipWithBounds, useTooltip } from '@visx/tooltip';
import { formatNumber } from '../../contract';
import './barChart.css';

export interface BarSeries {
  name: string;
  colour: string;
}
export interface BarRow {
  key: string;
  label: string;
  /** One value per series, in the series' order. */
  values: number[];
  /** This row's colour when there is one series (the alarms' priority colours). */
  colour?: string;
}
export interface BarChartProps {
  /** The chart's accessible name (its card's title). */
  name: string;
  series: BarSeries[];
  rows: BarRow[];
  height: number;
  /** Categories down the left, bars growing right, no value axis (the visitors of today). */
  horizontal?: boolean;
  /** Label every n-th category only (24 hours: every 6th). */
  labelEvery?: number;
  /** Width kept for the category labels of a horizontal chart. */
  labelWidth?: number;
  /** A legend of the series under the chart. */
  legend?: boolean;
  /** A bar opens what it counts (click, or Enter on the chosen bar). */
  onOpen?: (key: string) => void;
  testId?: string;
}

const AXIS = '#5f6b7c';
const TICK_LABEL = { fill: AXIS, fontSize: 11, fontFamily: 'inherit' } as const;
/**
 * A tick's label as one SVG text (issue 48). visx's own (`@visx/text`) measures each word with
 * getComputedTextLength to wrap it, whether or not a width asks for wrapping: a layout of the page forced inside React's
 * commit for every label, the cold dashboard's charts laid it out seven times in one task. Ours are one line each, as
 * visx's own draws a line of one (same attributes, `dx`/`dy` in the label's em).
 */
function TickLabel(tick: TickRendererProps) {
  // what is the measuring text's and not an SVG attribute stays out
  const { formattedValue, verticalAnchor, angle, lineHeight, scaleToFit, capHeight, width, innerRef, innerTextRef, ...attributes } = tick;
  return <text {...(attributes as SVGProps<SVGTextElement>)}>{formattedValue}</text>;
}
const HIGHLIGHT = 'rgba(143,153,168,.15)';
/** The thickest a bar is drawn (a chart of one or two categories would otherwise be a block). */
const MAX_BAR = 48;

export function BarChart(props: BarChartProps) {
  return (
    // a legend has room for two lines (its entries wrap at 390 px)
    <div className="gh-barchart" data-testid={props.testId} style={{ height: props.height + (props.legend ? 44 : 0) }}>
      <ParentSize debounceTime={50}>{({ width }) => (width > 0 ? <Chart {...props} width={width} /> : null)}</ParentSize>
    </div>
  );
}

function Chart({ name, series, rows, height, horizontal, labelEvery = 1, labelWidth = 70, legend, onOpen, width }: BarChartProps & { width: number }) {
  const [active, setActive] = useState<number | null>(null); // visual: the bar the pointer or the keyboard is on
  const tip = useTooltip<number>();
  const live = useId();
  const max = Math.max(1, ...rows.flatMap((r) => r.values));
  const margin = horizontal ? { top: 4, right: 16, bottom: 4, left: labelWidth } : { top: 8, right: 8, bottom: 22, left: 8 + String(max).length * 7 + 8 };
  const inner = { width: Math.max(0, width - margin.left - margin.right), height: Math.max(0, height - margin.top - margin.bottom) };
  const band = scaleBand<string>({ domain: rows.map((r) => r.key), range: [0, horizontal ? inner.height : inner.width], padding: 0.2 });
  const value = scaleLinear<number>({ domain: [0, max], range: horizontal ? [0, inner.width] : [inner.height, 0], nice: true });
  const within = scaleBand<number>({ domain: series.map((_, i) => i), range: [0, band.bandwidth()], padding: series.length > 1 ? 0.08 : 0 });
  const ticks = value.ticks(4).filter(Number.isInteger);
  const labelOf = new Map(rows.map((r) => [r.key, r.label]));
  const at = (i: number) => (band(rows[i].key) ?? 0) + band.bandwidth() / 2;

  const show = (i: number) => {
    setActive(i);
    const along = at(i);
    tip.showTooltip({
      tooltipData: i,
      tooltipLeft: horizontal ? margin.left + inner.width / 2 : margin.left + along,
      tooltipTop: horizontal ? margin.top + along : margin.top,
    });
  };
  const hide = () => {
    setActive(null);
    tip.hideTooltip();
  };
  const onKey = (e: KeyboardEvent) => {
    const last = rows.length - 1;
    const now = active ?? -1;
    const next =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? Math.min(last, now + 1)
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? Math.max(0, now - 1)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (next !== null && last >= 0) {
      e.preventDefault();
      show(next);
    } else if (e.key === 'Enter' && onOpen && active !== null) onOpen(rows[active].key);
    else if (e.key === 'Escape') hide();
  };
  const said = (i: number) =>
    `${rows[i].label}: ${series.map((s, k) => `${series.length > 1 ? `${s.name} ` : ''}${formatNumber(rows[i].values[k])}`).join(', ')}`;

  return (
    <div
      className="gh-barchart__surface"
      role="application"
      aria-label={name}
      aria-describedby={live}
      tabIndex={0}
      onKeyDown={onKey}
      onFocus={() => active === null && rows.length && show(0)}
      onBlur={hide}
      onPointerLeave={hide}
    >
      <svg width={width} height={height} aria-hidden="true" focusable="false">
        <Group left={margin.left} top={margin.top}>
          {!horizontal && <GridRows scale={value} width={inner.width} tickValues={ticks} stroke="#dce0e5" strokeDasharray="3 3" />}
          {rows.map((r, i) => (
            <Group key={r.key} left={horizontal ? 0 : (band(r.key) ?? 0)} top={horizontal ? (band(r.key) ?? 0) : 0}>
              {/* the band as a whole answers the pointer, and is lit while it is the active one */}
              <Bar
                x={horizontal ? 0 : -band.step() * 0.1}
                y={horizontal ? -band.step() * 0.1 : 0}
                width={horizontal ? inner.width : band.step()}
                height={horizontal ? band.step() : inner.height}
                fill={active === i ? HIGHLIGHT : 'transparent'}
                onPointerMove={() => active !== i && show(i)}
                onClick={onOpen && (() => onOpen(r.key))}
                style={onOpen && { cursor: 'pointer' }}
              />
              {series.map((s, k) => {
                const n = r.values[k];
                const length = horizontal ? value(n) : inner.height - value(n);
                const thick = Math.min(within.bandwidth(), MAX_BAR);
                const at = (within(k) ?? 0) + (within.bandwidth() - thick) / 2;
                return (
                  <Bar
                    key={k}
                    className="gh-barchart__bar"
                    pointerEvents="none"
                    x={horizontal ? 0 : at}
                    y={horizontal ? at : value(n)}
                    width={horizontal ? length : thick}
                    height={horizontal ? thick : length}
                    fill={series.length === 1 && r.colour ? r.colour : s.colour}
                  />
                );
              })}
            </Group>
          ))}
          {horizontal ? (
            <AxisLeft
              scale={band}
              hideAxisLine
              hideTicks
              tickFormat={(k) => labelOf.get(k)}
              tickLabelProps={{ ...TICK_LABEL, fontSize: 12, dx: -4 }}
              tickComponent={TickLabel}
            />
          ) : (
            <>
              <AxisLeft
                scale={value}
                tickValues={ticks}
                hideTicks
                stroke={AXIS}
                tickFormat={(n) => formatNumber(Number(n))}
                tickLabelProps={TICK_LABEL}
                tickComponent={TickLabel}
              />
              <AxisBottom
                top={inner.height}
                scale={band}
                hideTicks
                stroke={AXIS}
                tickValues={rows.filter((_, i) => i % labelEvery === 0).map((r) => r.key)}
                tickFormat={(k) => labelOf.get(k)}
                tickLabelProps={TICK_LABEL}
                tickComponent={TickLabel}
              />
            </>
          )}
        </Group>
      </svg>
      {legend && (
        <ul className="gh-barchart__legend" aria-hidden="true">
          {series.map((s) => (
            <li key={s.name}>
              <span style={{ background: s.colour }} /> {s.name}
            </li>
          ))}
        </ul>
      )}
      {tip.tooltipOpen && tip.tooltipData !== undefined && rows[tip.tooltipData] && (
        <TooltipWithBounds left={tip.tooltipLeft} top={tip.tooltipTop} unstyled applyPositionStyle className="gh-barchart__tip">
          <strong>{rows[tip.tooltipData].label}</strong>
          {series.map((s, k) => (
            <div key={s.name}>
              <span
                className="gh-barchart__swatch"
                style={{ background: series.length === 1 && rows[tip.tooltipData!].colour ? rows[tip.tooltipData!].colour : s.colour }}
              />
              {s.name}: {formatNumber(rows[tip.tooltipData!].values[k])}
            </div>
          ))}
        </TooltipWithBounds>
      )}
      <div id={live} className="gh-sr-only" role="status" aria-live="polite">
        {active !== null && rows[active] ? said(active) : ''}
      </div>
    </div>
  );
}
