// Everything the console says in zh-CN beyond its keyed shell messages, in one chunk of its own: an English console
// never downloads it (about 80 KB compressed); it comes with i18next in ./engine.ts, loaded before the console switches to Chinese.
import { zhRoutes } from './routes.zh';
import { derivedZhRoutes } from './routes.derived';
import { zhPrivileges } from './privileges.zh';
import { derivedZhPrivileges } from './privileges.derived';
import { zhSentences, zhValueWords } from './sentences';
import { zhViolationSentences } from './violationSentences';
import { zhEventWords } from './events';
import { zhText } from './text';

/** Each resource's zh-CN labels, by the path of the file that holds them: contract/resources/<name>.zh.ts beside the
 *  declaration <name>.ts, keyed as the console looks them up (`resource.webHooks.field.url`, ./catalogue.ts). Eager,
 *  so they are part of this chunk and nothing else: an English console downloads none of them. */
export const zhLabelFiles: Record<string, Record<string, string>> = import.meta.glob<Record<string, string>>('../../contract/resources/*.zh.ts', {
  eager: true,
  import: 'default',
});
/** Every resource's zh-CN labels in one dictionary (a key is a resource's: each file labels only its own). */
export const zhCatalogue: Record<string, string> = Object.assign({}, ...Object.values(zhLabelFiles));

export const zhBundles: Record<'text' | 'routes' | 'catalogue' | 'server' | 'privileges', Record<string, string>> = {
  text: { ...zhText, ...zhValueWords, ...zhEventWords },
  // a resource's own routes from its labels (./routes.derived.ts); ./routes.zh.ts for the rest and what differs
  routes: { ...derivedZhRoutes(zhCatalogue), ...zhRoutes },
  catalogue: zhCatalogue,
  // the contract's sentences too: a refusal or a sentence's value may be one of them (a journal's line, issue 48)
  server: { ...zhViolationSentences, ...zhSentences },
  // a resource's own privileges from its labels (./privileges.derived.ts); ./privileges.zh.ts for the rest
  privileges: { ...derivedZhPrivileges(zhCatalogue), ...zhPrivileges },
};
