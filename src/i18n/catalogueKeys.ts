// The keys of the catalogue's labels (src/i18n/catalogue.ts), in a module of their own (issue 48): the console's start
// says a resource's name by its key (src/i18n/index.ts) and needs none of the declarations catalogue.ts reads.
/** The key prefix of a resource's fields (`child` set: the fields of its owned rows `child`). */
export const resourceBase = (resource: string, child?: string) => (child ? `resource.${resource}.child.${child}` : `resource.${resource}`);
export const catKey = {
  one: (r: string) => `resource.${r}.one`,
  many: (r: string) => `resource.${r}.many`,
  description: (r: string) => `resource.${r}.description`,
  field: (base: string, f: string) => `${base}.field.${f}`,
  help: (base: string, f: string) => `${base}.help.${f}`,
  placeholder: (base: string, f: string) => `${base}.placeholder.${f}`,
  unique: (base: string, f: string) => `${base}.unique.${f}`,
  rule: (base: string, f: string) => `${base}.rule.${f}`,
  choice: (base: string, f: string, value: string) => `${base}.choice.${f}.${value}`,
  item: (r: string, f: string) => `resource.${r}.item.${f}`,
  formTitle: (r: string, i: number) => `resource.${r}.form.${i}.title`,
  formDescription: (r: string, i: number) => `resource.${r}.form.${i}.description`,
  addLabel: (r: string) => `resource.${r}.addLabel`,
  addTitle: (r: string) => `resource.${r}.addTitle`,
  scope: (r: string, name: string) => `resource.${r}.scope.${name}`,
};
