// What views read from the hardwareStatus actor.
import type { HardwareKind } from '../contract';
import type { ControllerState, DeviceStatus, DoorState, HardwareStatusSnapshot } from './hardwareStatus';

export const selectStatusOf =
  (id: string | number) =>
  (s: HardwareStatusSnapshot): string | undefined =>
    s.context.statuses[String(id)]?.status;
export const selectDoorStatusOf =
  (id: string | number) =>
  (s: HardwareStatusSnapshot): string | undefined =>
    s.context.doors[String(id)]?.doorStatus;

const byName = <T extends { id: string | number; name: string | null }>(a: T, b: T) =>
  (a.name ?? '').localeCompare(b.name ?? '') || String(a.id).localeCompare(String(b.id));

const doorsCache = new WeakMap<object, DoorState[]>();
/** Doors by name; the same array for the same context object, so useSelector does not re-render. */
export const selectDoors = (s: HardwareStatusSnapshot): DoorState[] => {
  let v = doorsCache.get(s.context.doors);
  if (!v) doorsCache.set(s.context.doors, (v = Object.values(s.context.doors).sort(byName)));
  return v;
};
const controllersCache = new WeakMap<object, ControllerState[]>();
export const selectControllers = (s: HardwareStatusSnapshot): ControllerState[] => {
  let v = controllersCache.get(s.context.controllers);
  if (!v) controllersCache.set(s.context.controllers, (v = Object.values(s.context.controllers).sort(byName)));
  return v;
};
/** Devices of one kind known from status codes (interfaces, readers, inputs, outputs). */
export const selectDevicesOfKind =
  (kind: HardwareKind) =>
  (s: HardwareStatusSnapshot): DeviceStatus[] =>
    Object.values(s.context.statuses)
      .filter((d) => d.kind === kind)
      .sort(byName);
/** Door counts per doorStatus, for the dashboard widget. */
export const selectDoorStatusCounts = (s: HardwareStatusSnapshot): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const d of Object.values(s.context.doors)) out[d.doorStatus] = (out[d.doorStatus] ?? 0) + 1;
  return out;
};
