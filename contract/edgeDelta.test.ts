// Finer deltas (issue 47): a keyed part's change by element, worked out by hand.
import { describe, expect, it } from 'vitest';
import { applyPart, diffPart, edgeKeyOf } from './edgeDelta';

const people = (n: number) => Array.from({ length: n }, (_, i) => ({ id: (i + 1) * 10, name: `P${i + 1}` }));

describe('a keyed part changed by element', () => {
  it('names the one changed, the one new and the one gone, and applying it gives the part after', () => {
    const before = people(10); // ids 10..100
    const after = [...before.filter((p) => p.id !== 40).map((p) => (p.id === 70 ? { ...p, name: 'Seven' } : p)), { id: 55, name: 'New' }].sort(
      (a, b) => a.id - b.id,
    );
    const d = diffPart(before, after)!;
    expect(d).toEqual({
      upsert: [
        { id: 55, name: 'New' },
        { id: 70, name: 'Seven' },
      ],
      remove: [40],
    });
    expect(applyPart(before, d)).toEqual(after);
  });

  it('sends the part whole (null) when half of it or more changed', () => {
    const before = people(4);
    expect(
      diffPart(
        before,
        before.map((p, i) => (i < 2 ? { ...p, name: 'x' } : p)),
      ),
    ).toBeNull(); // 2 of 4
    expect(
      diffPart(
        before,
        before.map((p, i) => (i < 1 ? { ...p, name: 'x' } : p)),
      ),
    ).toEqual({ upsert: [{ id: 10, name: 'x' }], remove: [] });
    expect(diffPart([], [{ id: 1 }])).toBeNull();
  });

  it('keys tuples by their first value and puts what it adds in ascending order', () => {
    expect(edgeKeyOf([7, [1, 2]])).toBe(7);
    expect(edgeKeyOf({ id: 3 })).toBe(3);
    const members = [
      [1, [5]],
      [3, [5]],
      [9, [6]],
    ];
    expect(
      applyPart(members, {
        upsert: [
          [2, [7]],
          [9, [5, 6]],
        ],
        remove: [3],
      }),
    ).toEqual([
      [1, [5]],
      [2, [7]],
      [9, [5, 6]],
    ]);
  });

  it('an element whose fields are in another order counts as changed (the hash is of the JSON)', () => {
    const before = people(4);
    expect(diffPart(before, [{ name: 'P1', id: 10 }, ...before.slice(1)])).toEqual({ upsert: [{ name: 'P1', id: 10 }], remove: [] });
  });
});
