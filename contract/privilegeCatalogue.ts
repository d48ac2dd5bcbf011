// The privilege catalogue everything reads (issue 48: a resource is its declaration and its migration): the
// specification's list (./privileges.ts SPEC_PRIVILEGES) and, after it, every code a catalogue resource declares
// (contract/resources, `privileges: { view, add, edit, delete }`) that the list does not name, labelled as the list's
// own are ("View <its plural>", "Add …", "Edit …", "Delete …"; zh-CN from its zh-CN labels,
// src/i18n/privileges.derived.ts). A new resource's codes need no line here. Apart from ./privileges.ts because the
// declarations import PRIV from it.
import { SPEC_PRIVILEGES, type PrivilegeDef } from './privileges';
import { CATALOGUE_INDEX } from './resources/catalogueIndex';
import type { ResourceSummary } from './resources/summary';

const VERBS = { view: 'View', add: 'Add', edit: 'Edit', delete: 'Delete' } as const;
export type PrivilegeAction = keyof typeof VERBS;

/** The label a resource's own action code gets when the specification names none ("View web hooks"). */
export const resourcePrivilegeLabel = (action: PrivilegeAction, many: string) => `${VERBS[action]} ${many.toLowerCase()}`;

/** The entries of `resources`' view/add/edit/delete codes that `known` does not name, in catalogue order. */
export function declaredPrivileges(resources: readonly ResourceSummary[], known: readonly PrivilegeDef[]): PrivilegeDef[] {
  const seen = new Set(known.map((p) => p.code));
  const out: PrivilegeDef[] = [];
  for (const res of resources)
    for (const action of Object.keys(VERBS) as PrivilegeAction[]) {
      const code = res.privileges[action];
      if (typeof code !== 'string' || seen.has(code)) continue;
      seen.add(code);
      out.push({ code, label: resourcePrivilegeLabel(action, res.label.many) });
    }
  return out;
}

export const PRIVILEGES: readonly PrivilegeDef[] = [...SPEC_PRIVILEGES, ...declaredPrivileges(CATALOGUE_INDEX, SPEC_PRIVILEGES)];
export const PRIVILEGE_CODES: ReadonlySet<string> = new Set(PRIVILEGES.map((p) => p.code));
export const ALL_PRIVILEGE_CODES: readonly string[] = PRIVILEGES.map((p) => p.code);
