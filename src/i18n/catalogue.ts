// The keys of the catalogue's labels (contract/resources), derived from the declarations: the declarations carry the
// English, and each one's zh-CN sits beside it in contract/resources/<name>.zh.ts by the same `resource.<name>.…` key
// (merged in src/i18n/zh.ts). The console looks a label up by key and falls back to the declaration's English;
// src/i18n/i18n.test.ts fails when a resource, field, choice, help or message lacks its zh-CN beside its declaration.
import { CATALOGUE, labelOf, type AnyField, type Fields, type ResourceDeclaration } from '../../contract';
import { catKey, resourceBase } from './catalogueKeys';

export { catKey, resourceBase };

/** Placeholders with no words (a phone number's shape) read the same in every language. */
const hasWords = (s: string) => /[A-Za-z]{2,}/.test(s);

function fieldEntries(base: string, name: string, f: AnyField, out: Record<string, string>): void {
  out[catKey.field(base, name)] = labelOf(name, f);
  if (f.help) out[catKey.help(base, name)] = f.help;
  if (f.placeholder && hasWords(f.placeholder)) out[catKey.placeholder(base, name)] = f.placeholder;
  if (f.uniqueMessage) out[catKey.unique(base, name)] = f.uniqueMessage;
  for (const c of f.choices ?? []) out[catKey.choice(base, name, c.value)] = c.label;
}

/** Every English string of one declaration by its derived key. */
export function declarationEntries(d: ResourceDeclaration<any>): Record<string, string> {
  const out: Record<string, string> = {};
  const base = resourceBase(d.name);
  out[catKey.one(d.name)] = d.label.one;
  out[catKey.many(d.name)] = d.label.many;
  if (d.description) out[catKey.description(d.name)] = d.description;
  for (const [name, f] of Object.entries(d.fields as Fields)) {
    fieldEntries(base, name, f, out);
    if (f.kind === 'children' && f.children) {
      out[catKey.item(d.name, name)] = f.children.itemLabel;
      const cb = resourceBase(d.name, name);
      for (const [cn, cf] of Object.entries(f.children.fields)) fieldEntries(cb, cn, cf, out);
      for (const r of f.children.rules ?? []) if ('message' in r) out[catKey.rule(cb, r.field)] = r.message;
    }
  }
  // a rule of today's date (fromToday) says it in the violation's own words (src/i18n/violations.ts)
  for (const r of d.rules ?? []) if ('message' in r) out[catKey.rule(base, r.field)] = r.message;
  d.form.forEach((s, i) => {
    out[catKey.formTitle(d.name, i)] = s.title;
    if (s.description) out[catKey.formDescription(d.name, i)] = s.description;
  });
  if (d.screens?.addLabel) out[catKey.addLabel(d.name)] = d.screens.addLabel;
  if (d.screens?.addTitle) out[catKey.addTitle(d.name)] = d.screens.addTitle;
  for (const sc of d.scopes ?? []) out[catKey.scope(d.name, sc.name)] = sc.label;
  return out;
}

export function enCatalogue(): Record<string, string> {
  return Object.assign({}, ...CATALOGUE.map(declarationEntries));
}
