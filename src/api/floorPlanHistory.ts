// Calls of the floor plan's time slider (issue 50); its actors are the system's (src/system/floorPlanTimeLogic.ts).
// Every answer is validated with its contract schema (contract/floorPlanHistory.ts).
import { FloorPlanAlarms, FloorPlanAt } from '../../contract/floorPlanHistory';
import { api } from './client';
import { checked } from './endpoints';
import { RESOURCE_INDEX } from '../../contract/resources/catalogueIndex';

/** Plan `planId` as it stood at `at` (an ISO instant of the last 30 days). */
export async function floorPlanAt(planId: number, at: string, signal?: AbortSignal): Promise<FloorPlanAt> {
  const path = `${RESOURCE_INDEX.floorPlans.api}/${planId}/at`;
  const r = await api.get(path, { params: { t: at }, ...(signal ? { signal } : {}) });
  return checked(r.data, FloorPlanAt, path);
}

/** The alarms raised in [from, to], newest first, to jump to. */
export async function floorPlanAlarms(planId: number, from: string, to: string, signal?: AbortSignal): Promise<FloorPlanAlarms> {
  const path = `${RESOURCE_INDEX.floorPlans.api}/${planId}/alarms`;
  const r = await api.get(path, { params: { from, to }, ...(signal ? { signal } : {}) });
  return checked(r.data, FloorPlanAlarms, path);
}
