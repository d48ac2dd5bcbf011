// The light index (./catalogueIndex.ts, issue 48) is the declarations' own values: generated from them through
// summaryOf, it may never disagree with them (a changed label, route, privilege or screen exception fails here until
// `npm run catalogue:index` writes it again), and the route rows worked out from it are those of the declarations.
import { describe, expect, it } from 'vitest';
import { CATALOGUE, resourceByName } from './index';
import { CATALOGUE_INDEX, RESOURCE_INDEX, resourceSummary } from './catalogueIndex';
import { routeRows, summaryOf } from './summary';

describe('the catalogue light index', () => {
  it('is every declaration through summaryOf, in the catalogue order (else: npm run catalogue:index)', () => {
    expect(CATALOGUE_INDEX).toEqual(CATALOGUE.map(summaryOf));
  });

  it('is keyed by each declaration name', () => {
    expect(Object.keys(RESOURCE_INDEX)).toEqual(CATALOGUE.map((d) => d.name));
    for (const d of CATALOGUE) expect(resourceSummary(d.name)).toBe(RESOURCE_INDEX[d.name as keyof typeof RESOURCE_INDEX]);
    expect(resourceSummary('constructor')).toBeUndefined();
    expect(resourceSummary('nothing')).toBeUndefined();
  });

  it('gives the route rows of the full declarations', () => {
    for (const s of CATALOGUE_INDEX) expect(routeRows(s)).toEqual(routeRows(resourceByName(s.name)!));
  });

  it('summaryOf keeps what the route rows read and nothing of the fields', () => {
    const d = resourceByName('leave')!;
    const s = summaryOf(d);
    expect(s).not.toHaveProperty('fields');
    expect(s.privileges).toEqual(d.privileges);
    expect(summaryOf({ ...d, label: { one: 'X', many: 'Xs' } }).label).toEqual({ one: 'X', many: 'Xs' });
  });
});
