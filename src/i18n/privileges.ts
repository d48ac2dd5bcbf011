// The privilege catalogue (contract/privileges.ts) in the console's language (issue 10: the privileges and
// assign-privileges screens speak the console's language); the zh-CN labels arrive with the zh-CN chunk. A "View …" label reads "查看…", so a
// group's name (its view privilege without the verb) follows in both languages.
import { tPrivilege, type Locale } from './index';

/** A privilege's label in `loc` (the English one when no translation is kept): zh-CN from ./privileges.zh.ts and ./privileges.derived.ts. */
export const privilegeLabel = (code: string, english: string, loc: Locale) => (loc === 'zh-CN' ? tPrivilege(code, english, loc) : english);
/** A group's name from its view privilege's label: without "View (the)" / "查看". */
export const withoutView = (label: string) => {
  const l = label.replace(/^View (the )?/, '').replace(/^查看\s*/, '');
  return l.charAt(0).toUpperCase() + l.slice(1);
};
