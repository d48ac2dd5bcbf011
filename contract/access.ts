// Privilege checks shared by the console's guard and menus and the server (§5, §6).
import type { PrivilegeMode } from './constants';
import type { PrivilegeEntry } from './schemas';

/** All privilege ids the user holds, gathered from every entry (§6). */
export function heldPrivilegeIds(entries: readonly PrivilegeEntry[]): Set<string> {
  const s = new Set<string>();
  for (const e of entries) for (const id of e.privilegeIds) s.add(id);
  return s;
}

/**
 * §5: takes a list and a mode; ONLY_ONE (default) passes on any match, ALL needs every one.
 * With no privileges given it passes. Other modes fail.
 */
export function hasPrivilege(held: ReadonlySet<string>, required: readonly string[] | undefined, mode: string = 'ONLY_ONE'): boolean {
  if (!required || required.length === 0) return true;
  if (mode === 'ONLY_ONE') return required.some((r) => held.has(r));
  if (mode === 'ALL') return required.every((r) => held.has(r));
  return false;
}

/** §6: privileges are stored per division; a route's division ids derive from the entries matching it. */
export function divisionIdsFor(entries: readonly PrivilegeEntry[], required: readonly string[]): { divisionIds: number[]; firstParentDivisionIds: number[] } {
  const d = new Set<number>();
  const f = new Set<number>();
  for (const e of entries) {
    if (required.length === 0 || e.privilegeIds.some((p) => required.includes(p))) {
      e.divisionIds.forEach((x) => d.add(x));
      e.firstParentDivisionIds.forEach((x) => f.add(x));
    }
  }
  return { divisionIds: [...d].sort((a, b) => a - b), firstParentDivisionIds: [...f].sort((a, b) => a - b) };
}

export type { PrivilegeMode };

/**
 * Issue 11: every authenticated answer carries a tag of the caller's privilege entries (GRANTS_HEADER); the
 * console compares it with the tag of the entries it holds and re-reads them (/me) when they differ, so a change
 * of grants reaches the sidebar and routes on the next request, without a new sign-in. FNV-1a over the JSON.
 */
export const GRANTS_HEADER = 'x-gatehouse-grants';
export function grantsTag(entries: readonly PrivilegeEntry[]): string {
  const s = JSON.stringify(entries.map((e) => [e.privilegeIds, e.divisionIds, e.firstParentDivisionIds]));
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
