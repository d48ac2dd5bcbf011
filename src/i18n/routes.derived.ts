// The zh-CN titles and descriptions of a catalogue resource's own routes, derived from its zh-CN labels (issue 48: a
// resource is its declaration and its migration). The English rows are templates over the declaration's labels
// (contract/resources/derive.ts routeRows: "Add web hook", "Edit web hook"; src/app/routes/define.ts catalogue():
// "Create a new web hook.", "Change an existing web hook."); their zh-CN are the same templates over the zh-CN labels
// of contract/resources/<name>.zh.ts, as Payload's '新增 {{label}}'. src/i18n/routes.zh.ts keeps only what differs: a
// route the declaration titles itself (screens.listTitle, addTitle, editTitle), a description of its own, and every
// route that is not a resource's. A list's (or settings form's) description is the declaration's `description`, its
// zh-CN `resource.<name>.description` beside the labels. Built in the zh-CN chunk (src/i18n/zh.ts) from the catalogue alone.
import { CATALOGUE_INDEX } from '../../contract/resources/catalogueIndex';
import { routeRows } from '../../contract/resources/summary';

/** A verb and a noun in Chinese: run together, with a space before a Latin word ("新增 Web 钩子"). */
export const zhVerb = (verb: string, noun: string) => (/^[A-Za-z0-9]/.test(noun) ? `${verb} ${noun}` : `${verb}${noun}`);

/** The English a derived title or description stands for, as the route table makes it (the test compares them). */
export const enRouteTemplate = (kind: 'list' | 'add' | 'edit' | 'settings', one: string, many: string, description?: string) =>
  ({
    list: { title: many, description },
    add: { title: `Add ${one.toLowerCase()}`, description: `Create a new ${one.toLowerCase()}.` },
    edit: { title: `Edit ${one.toLowerCase()}`, description: `Change an existing ${one.toLowerCase()}.` },
    settings: { title: one, description },
  })[kind];

const zhTemplate = (kind: 'list' | 'add' | 'edit' | 'settings', one: string, many: string, description?: string) =>
  ({
    list: { title: many, description },
    add: { title: zhVerb('新增', one), description: `${zhVerb('创建', one)}。` },
    edit: { title: zhVerb('编辑', one), description: `${zhVerb('修改', one)}。` },
    settings: { title: one, description },
  })[kind];

/**
 * Route title (keyed by path) and description (`desc:<path>`) of every catalogue route whose English is the template,
 * in zh-CN from `zhCatalogue` (`resource.<name>.one` / `.many`). A resource without its zh-CN labels gives none
 * (src/i18n/i18n.test.ts names it).
 */
export function derivedZhRoutes(zhCatalogue: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const res of CATALOGUE_INDEX) {
    const one = zhCatalogue[`resource.${res.name}.one`];
    const many = zhCatalogue[`resource.${res.name}.many`];
    if (!one || !many) continue;
    for (const row of routeRows(res)) {
      const en = enRouteTemplate(row.kind, res.label.one, res.label.many, res.description);
      const zh = zhTemplate(row.kind, one, many, res.description && zhCatalogue[`resource.${res.name}.description`]);
      if (row.title === en.title) out[row.path] = zh.title;
      if (zh.description && !(row.kind === 'edit' && res.screens?.editDescription)) out[`desc:${row.path}`] = zh.description;
    }
  }
  return out;
}
