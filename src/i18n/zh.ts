// Everything the console says in zh-CN beyond its keyed shell messages, in one chunk of its own: an English console
// never downloads it (about 80 KB compressed); src/i18n/index.ts loads it before switching to Chinese.
import { zhCatalogue } from './catalogue.zh';
import { zhRoutes } from './routes.zh';
import { saySentence, zhSentences } from './sentences';
import { zhText } from './text';

export const zhBundles: Record<'text' | 'routes' | 'catalogue', Record<string, string>> = {
  text: { ...zhText, ...zhSentences },
  routes: zhRoutes,
  catalogue: zhCatalogue,
};

/** A server sentence with values in zh-CN (./sentences.ts), or undefined when no template matches. */
export function sayZh(message: string, fill: (template: string, vars: Record<string, string>) => string): string | undefined {
  return saySentence(message, { templates: zhSentences, text: zhBundles.text, catalogue: (k) => zhCatalogue[k], fill });
}
