// The zh-CN labels of a catalogue resource's own privileges, derived from its zh-CN labels (issue 48: a resource is
// its declaration and its migration). The English ones are the specification's, most of them "View / Add / Edit /
// Delete <the resource's plural>" (contract/privileges.ts crud(), and contract/privilegeCatalogue.ts for a code the
// specification's list does not name); where a code's English is that template over the
// resource's English label, its zh-CN is "查看 / 新增 / 编辑 / 删除 <its zh-CN label>" (contract/resources/<name>.zh.ts).
// ./privileges.zh.ts keeps the rest: codes of no resource, and labels of their own. Built in the zh-CN chunk (./zh.ts).
import { PRIVILEGES, resourcePrivilegeLabel } from '../../contract';
import { CATALOGUE_INDEX } from '../../contract/resources/catalogueIndex';
import { zhVerb } from './routes.derived';

const VERBS = { view: '查看', add: '新增', edit: '编辑', delete: '删除' } as const;

/** The English a derived label stands for ("View web hooks"): the test compares it with the catalogue's. */
export const enPrivilegeTemplate = resourcePrivilegeLabel;

/** zh-CN label by privilege code, for each resource action whose English label is the template. */
export function derivedZhPrivileges(zhCatalogue: Record<string, string>): Record<string, string> {
  const english = new Map(PRIVILEGES.map((p) => [p.code, p.label]));
  const out: Record<string, string> = {};
  for (const res of CATALOGUE_INDEX) {
    const many = zhCatalogue[`resource.${res.name}.many`];
    if (!many) continue;
    for (const action of Object.keys(VERBS) as (keyof typeof VERBS)[]) {
      const code = res.privileges[action];
      if (typeof code === 'string' && english.get(code)?.toLowerCase() === enPrivilegeTemplate(action, res.label.many).toLowerCase())
        out[code] = zhVerb(VERBS[action], many);
    }
  }
  return out;
}
