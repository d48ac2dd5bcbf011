import { describe, expect, it } from 'vitest';
import { attentionFirst, countDoors, doorStateOf, mergeDoors, unheardChanges } from './doorStatus';

describe('door states', () => {
  const door = (id: number, name: string, status: string) => ({ id, name, status, divisionId: 1, divisionName: 'Security', lastChangedAt: null });
  const stored = [door(1, 'Main Entrance', 'closed'), door(2, 'Server Room', 'locked'), door(3, 'Loading Bay', 'closed')];
  it('lays live heart-beats over the stored status, by id of either type', () => {
    const merged = mergeDoors(stored, [
      { id: '2', name: 'Server Room', doorStatus: 'forced-open' },
      { id: 9, name: 'Elsewhere', doorStatus: 'unlocked' },
    ]);
    expect(merged.map((d) => [d.id, d.status, d.live])).toEqual([
      [1, 'closed', false],
      [2, 'forced-open', true],
      [3, 'closed', false],
    ]);
    expect(merged[1]).toMatchObject({ divisionName: 'Security', lastChangedAt: null });
  });
  it('names the heart-beats the stored list has not heard, and nothing when they agree', () => {
    expect(
      unheardChanges(stored, [
        { id: 1, name: null, doorStatus: 'closed' },
        { id: '2', name: null, doorStatus: 'locked' },
      ]),
    ).toBe('');
    expect(
      unheardChanges(stored, [
        { id: 1, name: null, doorStatus: 'unlocked' },
        { id: 3, name: null, doorStatus: 'held-open' },
        { id: 9, name: null, doorStatus: 'unlocked' },
      ]),
    ).toBe('1:unlocked,3:held-open');
  });
  it('counts by state, problems first', () => {
    expect(
      countDoors([{ status: 'closed' }, { status: 'held-open' }, { status: 'closed' }, { status: 'jammed' }, { status: 'offline' }, { status: 'forced-open' }]),
    ).toEqual([
      { status: 'forced-open', count: 1 },
      { status: 'offline', count: 1 },
      { status: 'held-open', count: 1 },
      { status: 'closed', count: 2 },
      { status: 'jammed', count: 1 },
    ]);
  });
  it('puts the doors that need attention first, most urgent first, and keeps the others in their order', () => {
    const list = [
      door(1, 'A', 'closed'),
      door(2, 'B', 'held-open'),
      door(3, 'C', 'locked'),
      door(4, 'D', 'tamper'),
      door(5, 'E', 'unlocked-briefly'),
      door(6, 'F', 'forced-open'),
    ];
    expect(attentionFirst(list).map((d) => d.id)).toEqual([6, 4, 2, 1, 3, 5]);
  });
  it('marks alarm states as needing attention, and normal traffic not', () => {
    expect(['forced-open', 'held-open', 'offline', 'tamper'].every((s) => doorStateOf(s).problem)).toBe(true);
    expect(['closed', 'locked', 'unlocked', 'unlocked-briefly', 'jammed'].some((s) => doorStateOf(s).problem)).toBe(false);
  });
  it('names unknown states readably', () => {
    expect(doorStateOf('forced-open')).toMatchObject({ label: 'Forced open', problem: true });
    expect(doorStateOf('half-open').label).toBe('half open');
  });
});
