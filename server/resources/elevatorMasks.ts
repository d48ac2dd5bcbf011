// Elevator masking (issue 12): the floor list's syntax is the declaration's pattern; what a pattern cannot say (a
// range that runs backwards, a floor above the highest) is checked here, on the field.
import { parseFloors } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';

export const elevatorMaskHooks: ResourceHooks = {
  async validate(_ctx, input) {
    if (typeof input.floors !== 'string') return [];
    const r = parseFloors(input.floors);
    return 'problem' in r ? [{ field: 'floors', ...r.problem }] : [];
  },
};
