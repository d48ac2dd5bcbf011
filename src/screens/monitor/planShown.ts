// Which floor plan the monitor (/monitor/floor-plan) opens with.
/**
 * The plan the monitor shows: the one in the address when it is among the client's plans, else the one the properties
 * open with (while it exists), else the first by name. Nothing before the plans are in: an address kept in a tab from
 * another client (or a plan deleted since) is never asked for. `preferred` undefined: the properties are still
 * loading (nothing is chosen yet, so the first plan does not flash before the preferred one).
 */
export function planShown(inAddress: number | null, plans: readonly { id: number }[] | null, preferred: number | null | undefined): number | null {
  if (!plans) return null;
  if (inAddress && plans.some((p) => p.id === inAddress)) return inAddress;
  if (preferred === undefined) return null;
  if (preferred !== null && plans?.some((p) => p.id === preferred)) return preferred;
  return plans?.[0]?.id ?? null;
}
