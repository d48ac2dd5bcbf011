// The division tree as the console draws it: rows with their parent ids become nested nodes, siblings by name. A row
// whose parent the user cannot see (their grant starts below the top) is a root of what they see.
export interface DivisionRowLike {
  id: number;
  name: string;
  parentId: number | null;
}
export interface DivisionNode<T extends DivisionRowLike = DivisionRowLike> {
  row: T;
  depth: number;
  children: DivisionNode<T>[];
}

export function divisionTree<T extends DivisionRowLike>(rows: readonly T[]): DivisionNode<T>[] {
  const byParent = new Map<number | null, T[]>();
  const ids = new Set(rows.map((r) => r.id));
  for (const r of rows) {
    const key = r.parentId !== null && ids.has(r.parentId) ? r.parentId : null;
    byParent.set(key, [...(byParent.get(key) ?? []), r]);
  }
  const build = (parent: number | null, depth: number, seen: Set<number>): DivisionNode<T>[] =>
    (byParent.get(parent) ?? [])
      .filter((r) => !seen.has(r.id))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((row) => ({ row, depth, children: build(row.id, depth + 1, new Set([...seen, row.id])) }));
  return build(null, 0, new Set());
}

/** Depth-first, as a picker lists them (each name indented by its depth). */
export function flatten<T extends DivisionRowLike>(nodes: readonly DivisionNode<T>[]): DivisionNode<T>[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}
