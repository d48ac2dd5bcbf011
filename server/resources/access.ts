// Access configuration on the server, beyond the declarations (issue 12): a schedule's windows checked by the
// engine's own rules (inverted, empty, overlapping windows, also across midnight and the end of the week) and a
// card format's layout checked for fields that overlap or leave the bit count — each refused with the field named.
import { fill, type Violation } from '../../contract';
import { formatViolations } from '../access/cardFormat';
import { scheduleViolations, type DayWindow, type WeeklyWindow } from '../../access/schedule';
import type { ResourceHooks } from '../crud/hooks';

type Rows = Array<Record<string, unknown>> | undefined;

/** The schedule form's rows as the engine's windows, with the violations' field paths mapped back to the rows. */
export function scheduleInputViolations(windows: Rows, specialWindows: Rows): Violation[] {
  const weekly: WeeklyWindow[] = (windows ?? []).map((w) => ({ day: Number(w.day), start: String(w.start ?? ''), end: String(w.end ?? '') }));
  const special: Record<string, DayWindow[]> = {};
  const rowOf: Record<string, number[]> = {};
  (specialWindows ?? []).forEach((w, i) => {
    const kind = String(w.kind);
    (special[kind] ??= []).push({ start: String(w.start ?? ''), end: String(w.end ?? '') });
    (rowOf[kind] ??= []).push(i);
  });
  const out: Violation[] = scheduleViolations(weekly, special).map((v) => {
    const m = /^special\.(.+)\.(\d+)\.(start|end)$/.exec(v.field);
    return m ? { field: `specialWindows.${rowOf[m[1]][Number(m[2])]}.${m[3]}`, message: v.message } : v;
  });
  // two windows of one kind of special day that overlap
  for (const [kind, list] of Object.entries(special)) {
    list.forEach((a, i) =>
      list.forEach((b, j) => {
        if (j <= i || !(a.start < b.end && b.start < a.end)) return;
        out.push({
          field: `specialWindows.${rowOf[kind][j]}.start`,
          ...fill('schedule.overlapsSpecialWindow', 'overlaps special-day window {n}', { n: rowOf[kind][i] + 1 }),
        });
      }),
    );
  }
  return out;
}

export const scheduleHooks: ResourceHooks = {
  async validate(_ctx, input) {
    return scheduleInputViolations(input.windows as Rows, input.specialWindows as Rows);
  },
};

export const cardFormatHooks: ResourceHooks = {
  async validate(_ctx, input) {
    const n = (v: unknown) => (typeof v === 'number' ? v : NaN);
    const hasFacility =
      input.facilityStart !== null && input.facilityStart !== undefined && input.facilityLength !== null && input.facilityLength !== undefined;
    const out: Violation[] = [];
    if (!hasFacility && ((input.facilityStart ?? null) !== null || (input.facilityLength ?? null) !== null)) {
      out.push({
        field: (input.facilityStart ?? null) === null ? 'facilityStart' : 'facilityLength',
        ...fill('cardFormat.facilityPair', 'is needed with the other facility code field', {}),
      });
    }
    const v = formatViolations({
      name: String(input.name ?? ''),
      bits: n(input.bits),
      facility: hasFacility ? { start: n(input.facilityStart), length: n(input.facilityLength) } : null,
      card: { start: n(input.cardStart), length: n(input.cardLength) },
      parity: ((input.parity as Rows) ?? []).map((p) => ({
        bit: n(p.bit),
        type: p.type === 'odd' ? ('odd' as const) : ('even' as const),
        over: { start: n(p.overStart), length: n(p.overLength) },
      })),
    });
    // the engine names the layout's parts; the form's fields are cardStart, facilityStart and parity.i.bit / overStart
    for (const x of v) {
      const field =
        x.field === 'card' ? 'cardStart' : x.field === 'facility' ? 'facilityStart' : x.field.replace(/^parity\.(\d+)\.over$/, 'parity.$1.overStart');
      out.push({ ...x, field });
    }
    return out;
  },
};
