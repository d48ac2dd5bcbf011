import { describe, expect, it } from 'vitest';
import { countDoors, doorStateOf, mergeDoors } from './doorStatus';

describe('door states', () => {
  const stored = [
    { id: 1, name: 'Main Entrance', status: 'closed', divisionId: 1 },
    { id: 2, name: 'Server Room', status: 'locked', divisionId: 1 },
    { id: 3, name: 'Loading Bay', status: 'closed', divisionId: null },
  ];
  it('lays live heart-beats over the stored status, by id of either type', () => {
    const merged = mergeDoors(stored, [{ id: '2', name: 'Server Room', doorStatus: 'forced-open' }, { id: 9, name: 'Elsewhere', doorStatus: 'unlocked' }]);
    expect(merged.map((d) => [d.id, d.status, d.live])).toEqual([[1, 'closed', false], [2, 'forced-open', true], [3, 'closed', false]]);
  });
  it('counts by state, problems first', () => {
    expect(countDoors([{ status: 'closed' }, { status: 'held-open' }, { status: 'closed' }, { status: 'jammed' }, { status: 'forced-open' }]))
      .toEqual([{ status: 'forced-open', count: 1 }, { status: 'held-open', count: 1 }, { status: 'closed', count: 2 }, { status: 'jammed', count: 1 }]);
  });
  it('names unknown states readably', () => {
    expect(doorStateOf('forced-open')).toMatchObject({ label: 'Forced open', problem: true });
    expect(doorStateOf('half-open').label).toBe('half open');
  });
});
