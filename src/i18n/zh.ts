// Everything the console says in zh-CN beyond its keyed shell messages, in one chunk of its own: an English console
// never downloads it (about 80 KB compressed); src/i18n/index.ts loads it before switching to Chinese.
import { zhCatalogue } from './catalogue.zh';
import { zhRoutes } from './routes.zh';
import { zhText } from './text';

export const zhBundles: Record<'text' | 'routes' | 'catalogue', Record<string, string>> = { text: zhText, routes: zhRoutes, catalogue: zhCatalogue };
