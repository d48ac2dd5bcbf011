import { describe, expect, it } from 'vitest';
import { planShown } from './planShown';

describe('the plan the floor plan monitor shows', () => {
  const plans = [{ id: 4 }, { id: 9 }];
  it('is the address\u2019s, else the preferred one while it exists, else the first; nothing while the properties load', () => {
    expect(planShown(9, plans, 4)).toBe(9);
    expect(planShown(9, plans, undefined)).toBe(9); // the address's plan need not wait for the properties
    expect(planShown(null, plans, 9)).toBe(9);
    expect(planShown(null, plans, 5)).toBe(4); // the preferred plan was deleted
    expect(planShown(null, plans, null)).toBe(4);
    expect(planShown(null, plans, undefined)).toBeNull(); // the first plan does not flash before the preferred one
    expect(planShown(null, [], null)).toBeNull();
    expect(planShown(null, null, 9)).toBeNull();
  });
  it('never asks for a plan that is not among the client\u2019s (a tab of another client, a deleted plan)', () => {
    expect(planShown(7, null, 9)).toBeNull(); // the plans are not in yet
    expect(planShown(7, plans, 9)).toBe(9);
    expect(planShown(7, plans, null)).toBe(4);
    expect(planShown(7, [], null)).toBeNull();
  });
});
