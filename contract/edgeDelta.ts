// Finer deltas of an edge controller's snapshot (issue 47): a part that is a list of things with an id (identities,
// credentials, doors, …) changes by its elements, not whole. A site with 100,000 identities whose one name changed was
// sent every identity again (megabytes to every controller of the client); now the delta names that identity alone.
// The server diffs (server/edge/hub.ts), the edge applies (edge/snapshot.ts); the result's hash must be the one the
// delta names, so anything this gets wrong is refused and the whole snapshot asked for (`resync`), never applied.

/** An element's key: its id, or a tuple's first value ([identity id, …]). */
export const edgeKeyOf = (element: unknown): number => (Array.isArray(element) ? Number(element[0]) : Number((element as { id: number }).id));

/**
 * The change of one keyed part from `before` to `after` (both in ascending key order, as the server builds them), or
 * null when sending the part whole is as small (most of it changed).
 */
export function diffPart(before: readonly unknown[], after: readonly unknown[]): { upsert: unknown[]; remove: number[] } | null {
  const old = new Map<number, string>();
  for (const e of before) old.set(edgeKeyOf(e), JSON.stringify(e));
  const upsert: unknown[] = [];
  const kept = new Set<number>();
  for (const e of after) {
    const k = edgeKeyOf(e);
    kept.add(k);
    if (old.get(k) !== JSON.stringify(e)) upsert.push(e);
  }
  const remove = [...old.keys()].filter((k) => !kept.has(k));
  if (upsert.length + remove.length >= after.length / 2) return null;
  return { upsert, remove };
}

/** `part` with the patch applied: elements removed, new or changed ones put in, ascending by key again. */
export function applyPart(part: readonly unknown[], patch: { upsert: readonly unknown[]; remove: readonly number[] }): unknown[] {
  const byKey = new Map<number, unknown>();
  for (const e of part) byKey.set(edgeKeyOf(e), e);
  for (const k of patch.remove) byKey.delete(k);
  for (const e of patch.upsert) byKey.set(edgeKeyOf(e), e);
  return [...byKey.entries()].sort((a, b) => a[0] - b[0]).map(([, e]) => e);
}
