import { describe, expect, it } from 'vitest';
import { divisionTree, flatten } from './divisionTree';

describe('divisionTree', () => {
  it('nests rows under their parents, siblings by name, and treats a row with an unseen parent as a root', () => {
    const rows = [
      { id: 1, name: 'HQ', parentId: null },
      { id: 3, name: 'Security', parentId: 1 },
      { id: 2, name: 'Finance', parentId: 1 },
      { id: 4, name: 'Night', parentId: 3 },
      { id: 9, name: 'Branch', parentId: 77 },
    ];
    const tree = divisionTree(rows);
    expect(tree.map((n) => n.row.name)).toEqual(['Branch', 'HQ']);
    expect(flatten(tree).map((n) => `${n.depth}:${n.row.name}`)).toEqual(['0:Branch', '0:HQ', '1:Finance', '1:Security', '2:Night']);
  });
});
